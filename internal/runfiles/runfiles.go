// Package runfiles is the one table of the files and directories that
// decide what runs: a change to one of them makes a program run later
// without anyone typing its name (a git hook on the next commit, an
// editor task when the folder opens, a Makefile recipe behind an allowed
// make, a .pth file at every python start). The permission engine asks
// before accept-edits writes one, the settings guard puts them back, the
// sandbox holds them read-only and ponder doctor lists them: all four
// read this table, so a name added here reaches every line at once.
//
// The package uses the standard library only, so the sandbox may import
// it.
package runfiles

import (
	"path"
	"strings"
)

// Category groups the entries, so that a missing sibling (one version
// picker named, another not) is visible in the table.
type Category string

// The categories, in the order ponder doctor and the documentation list
// them.
const (
	AgentSettings Category = "agent settings"
	VCS           Category = "version control hooks and config"
	Editor        Category = "editor config that runs on open"
	DevContainer  Category = "dev containers and environments"
	VersionPicker Category = "version pickers"
	Wrapper       Category = "wrapper scripts"
	TaskRunner    Category = "task runners"
	CI            Category = "CI definitions"
	StartUp       Category = "package-manager and interpreter start-up files"
	Shell         Category = "shell and session start-up"
	VirtualEnv    Category = "virtual environments"
	ToolConfig    Category = "other tools' configuration directories"
)

// Categories lists the categories in order.
func Categories() []Category {
	return []Category{AgentSettings, VCS, Editor, DevContainer, VersionPicker, Wrapper, TaskRunner, CI, StartUp, Shell, VirtualEnv, ToolConfig}
}

// Entry is one row of the table.
type Entry struct {
	// Pattern is one path element or several joined by '/', each a
	// path.Match pattern ("mise.*.toml"). It matches at any depth, since
	// ponder, git and editors all treat a subdirectory as a project of its
	// own when started there, and without regard to case, since a
	// case-insensitive file system opens .GIT/config as .git/config.
	Pattern string
	// Tree says that everything below a match is covered too.
	Tree bool
	// Category is the row's group.
	Category Category
	// Why says, for the user, what runs it.
	Why string
	// Watch says the settings guard compares it, at the project root,
	// after every call the user did not approve one by one (see Watched).
	Watch bool
	// Records names entries directly below a watched tree that its tool
	// appends to as it works, which the guard leaves alone.
	Records []string
	// Written says that builds, package managers or the version control
	// tool write it in the ordinary course (a virtual environment,
	// node_modules, .git): accept-edits still asks before the model
	// writes it, but Paths leaves it out, so the sandbox keeps it
	// writable. Of .git, Paths holds the config and hooks (GitTargets).
	Written bool

	elems []string // Pattern's elements, lower case
}

// Sample returns a concrete path the entry matches, for tests and for
// probes that need a name rather than a pattern.
func (e Entry) Sample() string {
	r := strings.NewReplacer("*", "x", "?", "x")
	return r.Replace(e.Pattern)
}

var compiled = compile(table)

func compile(t []Entry) []Entry {
	out := make([]Entry, len(t))
	for i, e := range t {
		e.elems = strings.Split(strings.ToLower(e.Pattern), "/")
		for _, el := range e.elems {
			if _, err := path.Match(el, ""); err != nil {
				panic("runfiles: bad pattern " + e.Pattern)
			}
		}
		out[i] = e
	}
	return out
}

// Table returns the entries, grouped by category in the order of
// Categories.
func Table() []Entry {
	var out []Entry
	for _, c := range Categories() {
		for _, e := range compiled {
			if e.Category == c {
				out = append(out, e)
			}
		}
	}
	return out
}

// Match checks a relative, slash-separated path (relative to a project
// root, or to any directory such as the home directory) against the
// table, and returns the entry that covers it.
func Match(rel string) (Entry, bool) {
	elems := strings.Split(strings.ToLower(path.Clean(rel)), "/")
	for i := range elems {
		for _, e := range compiled {
			n := len(e.elems)
			if i+n > len(elems) || (!e.Tree && i+n != len(elems)) {
				continue
			}
			if matchElems(e.elems, elems[i:i+n]) {
				return e, true
			}
		}
	}
	return Entry{}, false
}

func matchElems(pattern, elems []string) bool {
	for j, p := range pattern {
		if ok, _ := path.Match(p, elems[j]); !ok {
			return false
		}
	}
	return true
}
