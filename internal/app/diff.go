package app

import (
	"path/filepath"
	"strings"

	"github.com/ponder-agent/ponder/internal/permission"
)

// FileChange is one file ponder changed in this session, as /diff shows
// it: the unified diff from what it held before ponder's first change to
// what it holds now, or why that cannot be shown.
type FileChange struct {
	// Path is relative to the project directory when inside it.
	Path string
	Diff string
	Note string
}

// SessionChanges lists the files ponder changed in the session's turns
// (those a rewind of the conversation has not cut away), each compared
// from its content before the first change to its content now. A file a
// deny rule keeps from reading is named, not shown. It reads files:
// front ends call it off their event loop.
func (a *App) SessionChanges() []FileChange {
	var out []FileChange
	for _, c := range a.checkpoints.Changes(a.relPath) {
		fc := FileChange{Path: a.relPath(c.Path), Diff: c.Diff, Note: c.Note}
		if d := a.perm.Decide(a.userContext(), permission.Access{Tool: "Read", Kind: permission.KindRead, Paths: []string{c.Path}}); d.Behavior == permission.Deny {
			fc.Diff, fc.Note = "", "not shown: "+d.Reason
		}
		out = append(out, fc)
	}
	return out
}

// relPath is path relative to the project directory when inside it.
func (a *App) relPath(path string) string {
	rel, err := filepath.Rel(a.dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return rel
}
