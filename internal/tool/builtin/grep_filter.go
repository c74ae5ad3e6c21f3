package builtin

import (
	"fmt"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// typeGlobs returns the file name patterns of a file type, like
// ripgrep's --type, and whether the type is known.
func typeGlobs(name string) ([]string, bool) {
	var g string
	switch strings.ToLower(name) {
	case "go", "golang":
		g = "*.go"
	case "js", "javascript":
		g = "*.js *.jsx *.mjs *.cjs"
	case "ts", "typescript":
		g = "*.ts *.tsx *.mts *.cts"
	case "py", "python":
		g = "*.py *.pyi *.pyw"
	case "rust", "rs":
		g = "*.rs"
	case "java":
		g = "*.java *.jsp"
	case "kotlin", "kt":
		g = "*.kt *.kts"
	case "scala":
		g = "*.scala *.sbt"
	case "c":
		g = "*.c *.h"
	case "cpp", "c++", "cc", "cxx":
		g = "*.cpp *.cc *.cxx *.c++ *.hpp *.hh *.hxx *.h++ *.h *.inl *.ipp"
	case "cs", "csharp":
		g = "*.cs *.csx"
	case "swift":
		g = "*.swift"
	case "objc":
		g = "*.m *.mm *.h"
	case "rb", "ruby":
		g = "*.rb *.rake *.gemspec Gemfile Rakefile"
	case "php":
		g = "*.php *.phtml"
	case "lua":
		g = "*.lua"
	case "dart":
		g = "*.dart"
	case "elixir", "ex":
		g = "*.ex *.exs"
	case "erlang", "erl":
		g = "*.erl *.hrl"
	case "haskell", "hs":
		g = "*.hs *.lhs"
	case "ocaml", "ml":
		g = "*.ml *.mli"
	case "clojure", "clj":
		g = "*.clj *.cljs *.cljc *.edn"
	case "r":
		g = "*.r *.R *.Rmd"
	case "perl", "pl":
		g = "*.pl *.pm *.t"
	case "zig":
		g = "*.zig"
	case "nim":
		g = "*.nim"
	case "sh", "shell", "bash":
		g = "*.sh *.bash *.zsh *.ksh .bashrc .bash_profile .zshrc .profile"
	case "ps", "powershell":
		g = "*.ps1 *.psm1 *.psd1"
	case "md", "markdown":
		g = "*.md *.markdown *.mdx"
	case "rst":
		g = "*.rst"
	case "txt", "text":
		g = "*.txt"
	case "json":
		g = "*.json *.jsonc *.jsonl *.json5"
	case "yaml", "yml":
		g = "*.yaml *.yml"
	case "toml":
		g = "*.toml"
	case "xml":
		g = "*.xml *.xsd *.xsl *.xslt *.svg *.plist"
	case "html":
		g = "*.html *.htm *.xhtml"
	case "css":
		g = "*.css *.scss *.sass *.less"
	case "vue":
		g = "*.vue"
	case "svelte":
		g = "*.svelte"
	case "sql":
		g = "*.sql"
	case "proto", "protobuf":
		g = "*.proto"
	case "graphql":
		g = "*.graphql *.gql"
	case "tf", "terraform":
		g = "*.tf *.tfvars *.hcl"
	case "nix":
		g = "*.nix"
	case "make":
		g = "Makefile makefile GNUmakefile *.mk *.mak"
	case "cmake":
		g = "CMakeLists.txt *.cmake"
	case "docker", "dockerfile":
		g = "Dockerfile Dockerfile.* *.dockerfile Containerfile"
	case "gradle":
		g = "*.gradle *.gradle.kts"
	case "ini", "config":
		g = "*.ini *.cfg *.conf *.properties"
	case "csv":
		g = "*.csv *.tsv"
	default:
		return nil, false
	}
	return strings.Fields(g), true
}

// knownTypes lists the canonical type names for error messages.
const knownTypes = "go, js, ts, py, rust, java, kotlin, scala, c, cpp, cs, swift, objc, ruby, php, lua, dart, elixir, erlang, haskell, ocaml, clojure, r, perl, zig, nim, sh, powershell, md, rst, txt, json, yaml, toml, xml, html, css, vue, svelte, sql, proto, graphql, terraform, nix, make, cmake, docker, gradle, ini, csv"

// nameSet matches file names against patterns, with fast paths for the
// common "*.ext" and plain-name forms.
type nameSet struct {
	suffixes []string
	names    []string
	globs    []string
}

func newNameSet(patterns []string) nameSet {
	var s nameSet
	for _, p := range patterns {
		switch {
		case strings.HasPrefix(p, "*") && !strings.ContainsAny(p[1:], `*?[{\`):
			s.suffixes = append(s.suffixes, p[1:])
		case !strings.ContainsAny(p, `*?[{\`):
			s.names = append(s.names, p)
		default:
			s.globs = append(s.globs, p)
		}
	}
	return s
}

func (s *nameSet) empty() bool { return len(s.suffixes)+len(s.names)+len(s.globs) == 0 }

func (s *nameSet) match(name string) bool {
	for _, x := range s.suffixes {
		if strings.HasSuffix(name, x) {
			return true
		}
	}
	for _, x := range s.names {
		if name == x {
			return true
		}
	}
	for _, g := range s.globs {
		if doublestar.MatchUnvalidated(g, name) {
			return true
		}
	}
	return false
}

// fileFilter decides which files Grep searches: by type and by globs. A
// glob without a slash matches the file name at any depth, one with a
// slash the path relative to the search root; a leading '!' excludes.
type fileFilter struct {
	types       nameSet
	hasTypes    bool
	include     nameSet  // name globs
	includePath []string // path globs
	exclude     nameSet
	excludePath []string
}

func newFileFilter(globs, fileType string) (*fileFilter, error) {
	f := &fileFilter{}
	if fileType != "" {
		g, ok := typeGlobs(fileType)
		if !ok {
			return nil, fmt.Errorf("unknown type %q; known types: %s. Use glob for other files", fileType, knownTypes)
		}
		f.types, f.hasTypes = newNameSet(g), true
	}
	var incNames, excNames []string
	for _, g := range splitGlobs(globs) {
		neg := strings.HasPrefix(g, "!")
		g = strings.TrimPrefix(strings.TrimPrefix(g, "!"), "/")
		if g == "" {
			continue
		}
		if !doublestar.ValidatePattern(g) {
			return nil, fmt.Errorf("glob %q is not a valid pattern", g)
		}
		byPath := strings.Contains(strings.TrimSuffix(g, "/"), "/")
		g = strings.TrimSuffix(g, "/")
		switch {
		case neg && byPath:
			f.excludePath = append(f.excludePath, g)
		case neg:
			excNames = append(excNames, g)
		case byPath:
			f.includePath = append(f.includePath, g)
		default:
			incNames = append(incNames, g)
		}
	}
	f.include, f.exclude = newNameSet(incNames), newNameSet(excNames)
	return f, nil
}

// splitGlobs splits a glob list at spaces and at commas outside braces.
func splitGlobs(s string) []string {
	var out []string
	depth, start := 0, 0
	flush := func(i int) {
		if g := strings.TrimSpace(s[start:i]); g != "" {
			out = append(out, g)
		}
		start = i + 1
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth = max(depth-1, 0)
		case ',':
			if depth == 0 {
				flush(i)
			}
		case ' ', '\t', '\n':
			flush(i)
		}
	}
	flush(len(s))
	return out
}

// skipDir reports whether a directory is excluded by a negated glob.
func (f *fileFilter) skipDir(rel string) bool {
	return f.excluded(rel)
}

func (f *fileFilter) excluded(rel string) bool {
	if f.exclude.match(path.Base(rel)) {
		return true
	}
	for _, g := range f.excludePath {
		if doublestar.MatchUnvalidated(g, rel) {
			return true
		}
	}
	return false
}

// keep reports whether a file is to be searched.
func (f *fileFilter) keep(rel string) bool {
	name := path.Base(rel)
	if f.hasTypes && !f.types.match(name) {
		return false
	}
	if f.excluded(rel) {
		return false
	}
	if f.include.empty() && len(f.includePath) == 0 {
		return true
	}
	if f.include.match(name) {
		return true
	}
	for _, g := range f.includePath {
		if doublestar.MatchUnvalidated(g, rel) {
			return true
		}
	}
	return false
}
