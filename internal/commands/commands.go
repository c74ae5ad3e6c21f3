// Package commands reads custom slash commands: markdown files whose body
// is a prompt, with optional YAML front matter (description,
// argument-hint, allowed-tools, model). A file commands/review.md is the
// command /review; commands/git/commit.md is /git:commit.
//
// A command is text: expanding it fills in its arguments and nothing
// else. Nothing in a command file runs, and what its front matter asks for
// (tools allowed without asking, a model) is for the caller to grant or
// not, according to where the file came from.
package commands

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ponder-agent/ponder/internal/frontmatter"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/smallfile"
)

// Scope says where a command was found.
type Scope string

// The scopes of command files.
const (
	ScopeUser    Scope = "user"
	ScopeProject Scope = "project"
)

// Command is one custom slash command.
type Command struct {
	// Name is the command without its slash ("review", "git:commit").
	Name         string
	Description  string
	ArgumentHint string
	// AllowedTools are permission rules the command asks to have allowed
	// ("Bash(git diff:*)", "Edit").
	AllowedTools []string
	// Model is the model the command asks for ("" for the session's).
	Model string
	// Body is the prompt, with $ARGUMENTS, $1 … $9 still in it.
	Body  string
	Path  string
	Scope Scope
}

// Dir is a directory of command files and its scope.
type Dir struct {
	Path  string
	Scope Scope
}

// MaxFileSize bounds a command file; a larger one is skipped.
const MaxFileSize = 256 << 10

// Load reads the command files (*.md, also in subdirectories) of dirs. When
// two files give the same name, the first directory's wins, so list the
// user's directories first: a repository cannot replace a user's command.
// Names in reserved (built-in commands) are skipped. Files that cannot be
// used are reported with their path; missing directories are not a
// problem.
func Load(dirs []Dir, reserved []string) ([]Command, []error) {
	taken := map[string]bool{}
	for _, r := range reserved {
		taken[strings.TrimPrefix(r, "/")] = true
	}
	var out []Command
	var problems []error
	for _, d := range dirs {
		cmds, errs := loadDir(d)
		problems = append(problems, errs...)
		for _, c := range cmds {
			if taken[c.Name] {
				continue
			}
			taken[c.Name] = true
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, problems
}

// loadDir reads one directory of commands. Symbolic links are not
// followed out of it: only regular files and directories count.
func loadDir(d Dir) ([]Command, []error) {
	var out []Command
	var problems []error
	if _, err := os.Stat(d.Path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	err := filepath.WalkDir(d.Path, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			problems = append(problems, fmt.Errorf("%s: %w", path, err))
			return nil
		}
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".md") || !e.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(d.Path, path)
		name := strings.ReplaceAll(strings.TrimSuffix(filepath.ToSlash(rel), ".md"), "/", ":")
		if !validName(name) {
			problems = append(problems, fmt.Errorf("command file %s: %q cannot be a command name (use letters, digits, - and _)", path, name))
			return nil
		}
		c, err := parseFile(path)
		if err != nil {
			problems = append(problems, err)
			return nil
		}
		c.Name, c.Path, c.Scope = name, path, d.Scope
		out = append(out, c)
		return nil
	})
	if err != nil {
		problems = append(problems, err)
	}
	return out, problems
}

// validName reports whether name is segments of letters, digits, - and _
// joined by colons.
func validName(name string) bool {
	if name == "" || len(name) > 100 {
		return false
	}
	for _, seg := range strings.Split(name, ":") {
		if seg == "" {
			return false
		}
		for _, r := range seg {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
				return false
			}
		}
	}
	return true
}

// frontMatter is the YAML header of a command file.
type frontMatter struct {
	Description  string `yaml:"description"`
	ArgumentHint string `yaml:"argument-hint"`
	// AllowedTools accepts "Read, Bash(git diff:*)" as well as a YAML
	// list; commas inside parentheses belong to the rule.
	AllowedTools frontmatter.List `yaml:"allowed-tools"`
	Model        string           `yaml:"model"`
}

// parseFile reads a command file; only a regular file is read, and no
// more than MaxFileSize of it.
func parseFile(path string) (Command, error) {
	data, err := smallfile.Read(path, MaxFileSize)
	if err != nil {
		return Command{}, err
	}
	return Parse(data, path)
}

// Parse reads the command file at path: optional front matter between
// --- lines, then the prompt.
func Parse(data []byte, path string) (Command, error) {
	var fm frontMatter
	body, err := frontmatter.Parse(data, path, &fm, frontmatter.Options{})
	if err != nil {
		return Command{}, err
	}
	body = strings.TrimSpace(body)
	if body == "" {
		return Command{}, fmt.Errorf("command file %s: the prompt is empty", path)
	}
	return Command{Description: strings.TrimSpace(fm.Description), ArgumentHint: strings.TrimSpace(fm.ArgumentHint),
		AllowedTools: fm.AllowedTools.Items(permission.SplitRuleList), Model: strings.TrimSpace(fm.Model), Body: body}, nil
}

// Expand fills the command's arguments into its prompt: $ARGUMENTS is
// all of them, $1 … $9 each word (quotes group words). A prompt that
// uses neither gets the arguments appended, so none are lost.
func (c Command) Expand(args string) string {
	args = strings.TrimSpace(args)
	words := splitWords(args)
	used := strings.Contains(c.Body, "$ARGUMENTS")
	var b strings.Builder
	body := c.Body
	for i := 0; i < len(body); i++ {
		if body[i] != '$' {
			b.WriteByte(body[i])
			continue
		}
		rest := body[i+1:]
		switch {
		case strings.HasPrefix(rest, "ARGUMENTS"):
			b.WriteString(args)
			i += len("ARGUMENTS")
		case len(rest) > 0 && rest[0] >= '1' && rest[0] <= '9':
			used = true
			if n := int(rest[0] - '1'); n < len(words) {
				b.WriteString(words[n])
			}
			i++
		default:
			b.WriteByte('$')
		}
	}
	out := b.String()
	if !used && args != "" {
		out += "\n\nARGUMENTS: " + args
	}
	return out
}

// splitWords splits at spaces, keeping "quoted words" and 'quoted words'
// together.
func splitWords(s string) []string {
	var out []string
	var cur strings.Builder
	var quote rune
	inWord := false
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote == 0 && (r == '"' || r == '\''):
			quote, inWord = r, true
		case quote == 0 && (r == ' ' || r == '\t' || r == '\n'):
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}

// Split parses a line typed by the user: "/name args" gives name and
// args; anything else gives ok false.
func Split(line string) (name, args string, ok bool) {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "/") {
		return "", "", false
	}
	name = line[1:]
	if i := strings.IndexAny(name, " \t\n"); i >= 0 {
		name, args = name[:i], name[i+1:]
	}
	if !validName(name) {
		return "", "", false
	}
	return name, strings.TrimSpace(args), true
}
