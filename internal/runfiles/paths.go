package runfiles

import (
	"os"
	"path/filepath"
	"strings"
)

// ConfigRecords are the entries of ponder's config directory that ponder
// itself appends to while it works (transcripts, file history, to-do
// lists, plans, team mailboxes and logs, the records of the processes its
// commands started). Everything else there
// (settings.json, trust.json, agents, commands, skills) decides what runs.
var ConfigRecords = []string{"projects", "file-history", "todos", "plans", "teams", "procs"}

// Path is one concrete path to hold read-only.
type Path struct {
	// Path is absolute.
	Path string
	// Entry is the table's row, or the zero Entry for ponder's config
	// directory and the targets git's config names.
	Entry Entry
	// Why says why, for entries without a row.
	Why string
	// Exists and Dir say what is there now.
	Exists, Dir bool
}

// Paths returns the concrete paths to protect for a project at root: each
// row of the table resolved at the project root and in home (a pattern
// with a wildcard only where it matches something; rows marked Written
// left out, so that builds keep working), the directories and
// files git's config names (core.hooksPath, include.path), and ponder's
// config directory whole. A row absent on disk is returned with Exists
// false, so that a caller may keep it from being created. home and
// configDir may be empty.
func Paths(root, home, configDir string) []Path {
	var out []Path
	seen := map[string]bool{}
	add := func(p Path) {
		if seen[p.Path] {
			return
		}
		seen[p.Path] = true
		if info, err := os.Lstat(p.Path); err == nil {
			p.Exists, p.Dir = true, info.IsDir()
		}
		out = append(out, p)
	}
	for _, base := range []string{root, home} {
		if base == "" {
			continue
		}
		for _, e := range Table() {
			if e.Written {
				continue
			}
			full := filepath.Join(base, filepath.FromSlash(e.Pattern))
			if !strings.ContainsAny(e.Pattern, "*?[") {
				add(Path{Path: full, Entry: e})
				continue
			}
			matches, _ := filepath.Glob(full)
			for _, m := range matches {
				if _, ok := Match(relTo(base, m)); ok {
					add(Path{Path: m, Entry: e})
				}
			}
		}
	}
	if root != "" {
		for _, t := range GitTargets(root, home) {
			add(Path{Path: t.Path, Why: t.Why})
		}
	}
	if configDir != "" {
		add(Path{Path: configDir, Why: "ponder's settings, trust answers, agents, commands and skills"})
	}
	return out
}

func relTo(base, p string) string {
	rel, err := filepath.Rel(base, p)
	if err != nil {
		return p
	}
	return filepath.ToSlash(rel)
}
