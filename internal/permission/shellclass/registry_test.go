package shellclass

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// literalsByFile returns, per non-test Go file of the package, the string
// literals it holds, and the keys of the composite literals of type
// family (the programs each file registers).
func literalsByFile(t *testing.T) (lits, registered map[string]map[string]bool) {
	t.Helper()
	// The shell analysis is this package and the permission rules that
	// read its results.
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := filepath.Glob("../*.go")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, rules...)
	lits, registered = map[string]map[string]bool{}, map[string]map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		lits[f], registered[f] = map[string]bool{}, map[string]bool{}
		ast.Inspect(af, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ImportSpec:
				return false
			case *ast.BasicLit:
				if n.Kind == token.STRING {
					if s, err := strconv.Unquote(n.Value); err == nil {
						lits[f][s] = true
					}
				}
			case *ast.CompositeLit:
				if id, ok := n.Type.(*ast.Ident); ok && id.Name == "family" {
					for _, e := range n.Elts {
						if kv, ok := e.(*ast.KeyValueExpr); ok {
							if bl, ok := kv.Key.(*ast.BasicLit); ok {
								s, _ := strconv.Unquote(bl.Value)
								registered[f][s] = true
							}
						}
					}
				}
			}
			return true
		})
	}
	return lits, registered
}

// notProgramNames are, per file, the strings that are also the names of
// registered programs but stand for something else there (option names,
// subcommands, keywords, separators), with what they are. A program's own
// facts belong in its family's table, never here.
var notProgramNames = map[string]struct {
	what  string
	words []string
}{
	"archives.go":    {"tar's --file option", []string{"file"}},
	"awk.go":         {"awk's keywords and builtins", []string{"[", "break", "continue", "exec", "exit", "file", "help", "printf", "return", "source"}},
	"dialect.go":     {"the names of shell dialects", []string{"bash", "mksh", "zsh"}},
	"files.go":       {"the default value letters (-n, -c) and --file", []string{"file", "nc"}},
	"git.go":         {"git's options, subcommands of git config and git remote, URL schemes", []string{"diff", "exec", "grep", "help", "http", "https", "set", "unset"}},
	"network.go":     {"curl's and wget's options", []string{"head", "help", "parallel", "timeout"}},
	"redirect.go":    {"the shell itself, which opens /dev/tcp connections", []string{"bash"}},
	"sed.go":         {"sed's options", []string{"file", "help"}},
	"services.go":    {"the subcommands of docker and systemctl", []string{"cat", "diff", "history", "ls", "ps", "view"}},
	"text.go":        {"the options of sort, date and hostname", []string{"alias", "help", "parallel", "set"}},
	"toolchains.go":  {"the subcommands and options of go and npm", []string{"env", "exec", "find", "git", "help", "ls", "test", "view"}},
	"../access.go":   {"the kinds of access", []string{"exec", "read"}},
	"../exec.go":     {"URL schemes", []string{"git", "http", "https", "ssh"}},
	"../hidden.go":   {"what a walk does with a directory", []string{"read"}},
	"../rule_url.go": {"URL schemes", []string{"http", "https"}},
	"wrappers.go": {"the wrappers' options, and echo, which xargs runs when given no command",
		[]string{"batch", "command", "echo", "exec", "exit", "groups", "help", "mount", "return", "time", "type", "unset", "wait"}},
}

// separators are program names that every file uses as the current
// directory or a separator of paths, addresses and lists.
var separators = map[string]bool{".": true, ":": true}

// TestOneFilePerProgramName proves that the registry is the one place a
// program is described: every registered program is registered in one
// family file, and its name appears as a string in no other file of the
// shell analysis: this package and the permission rules that
// read its results (notProgramNames lists the words that merely share a
// name).
func TestOneFilePerProgramName(t *testing.T) {
	lits, registered := literalsByFile(t)
	home := map[string]string{}
	for f, names := range registered {
		for n := range names {
			if other, dup := home[n]; dup {
				t.Errorf("%q is registered in %s and %s", n, other, f)
			}
			home[n] = f
		}
	}
	if len(home) != len(registry) {
		t.Errorf("the family tables hold %d programs, the registry %d", len(home), len(registry))
	}
	for n := range registry {
		if home[n] == "" {
			t.Errorf("%q is in the registry but in no family table", n)
		}
	}
	for f, strs := range lits {
		for s := range strs {
			h, isProgram := home[s]
			if !isProgram || h == f {
				continue
			}
			if slices.Contains(notProgramNames[f].words, s) || separators[s] {
				continue
			}
			t.Errorf("%s names the program %q, which %s registers: its facts belong there", f, s, h)
		}
	}
	for f, not := range notProgramNames {
		for _, w := range not.words {
			if !lits[f][w] {
				t.Errorf("notProgramNames lists %q for %s, which no longer uses it", w, f)
			}
		}
	}
}

// TestRegistryFieldsConsistent checks facts that only make sense together.
func TestRegistryFieldsConsistent(t *testing.T) {
	for name, p := range registry {
		if p.reads && (p.writes != "" || p.wrapper != nil || p.interpreter || p.session != "" || p.runsHidden != "" || p.hides != "") {
			t.Errorf("%q is said to only read and also to write or run", name)
		}
		if slices.ContainsFunc(p.commandOptions, func(o string) bool { return o == "" }) {
			t.Errorf("%q has an empty command option", name)
		}
		if !p.known() && !p.runsCommands() && p.fetch == nil && !p.knownFileUse() && p.files.values == "" && !p.pager {
			t.Errorf("%q is registered with nothing known about it", name)
		}
	}
}
