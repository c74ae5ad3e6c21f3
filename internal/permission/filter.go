package permission

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// ReadFilter judges the files and directories a reading tool (Grep, Glob,
// LS) comes across below a root the engine has already let it read, so
// that every file a tool reads or lists passes the same rules as a Read of
// that file. The decision is Decide's own; the filter only saves it the
// work a walk makes unnecessary: the entries of a directory listing need
// no symlink resolution (their resolved path is the root's plus the same
// relative part, since walks do not follow links) and, because a walk
// checks each directory before it descends, only the entry's own name can
// still match a rule. A symbolic link is resolved and checked in full.
type ReadFilter struct {
	e               *Engine
	c               Context
	tool            string
	root, canonRoot string
	// open says no rule can refuse a read here, so that only links need
	// a look.
	open bool
}

// ReadFilter returns the filter for a walk by tool below root, in context
// c (the same context as the call's own decision).
func (e *Engine) ReadFilter(c Context, tool, root string) *ReadFilter {
	root = filepath.Clean(root)
	f := &ReadFilter{e: e, c: c, tool: tool, root: root, canonRoot: Canonical(root)}
	e.mu.RLock()
	defer e.mu.RUnlock()
	a := Access{Tool: tool, Kind: KindRead}
	f.open = !nearProc(f.root) && !nearProc(f.canonRoot)
	for _, rules := range [][]Rule{e.deny, e.ask} {
		for _, r := range rules {
			if applies(r, a) {
				f.open = false
			}
		}
	}
	return f
}

// nearProc reports whether dir is /proc, inside it, or above it.
func nearProc(dir string) bool {
	dir = filepath.ToSlash(dir)
	return strings.HasPrefix(dir+"/", procRoot+"/") || strings.HasPrefix(procRoot+"/", strings.TrimSuffix(dir, "/")+"/")
}

// Check decides whether the entry at path, whose type bits the directory
// listing gave as typ, may be read (or listed). A directory that may not
// is not to be entered either.
func (f *ReadFilter) Check(path string, typ fs.FileMode) Decision {
	link := typ&fs.ModeSymlink != 0
	if f.open && !link {
		return Decision{Behavior: Allow, Rule: "mode", Reason: "Reading is allowed."}
	}
	var canon string
	h := pathHints{leafOnly: !link}
	if rel, ok := below(f.root, path); ok && !link {
		switch {
		case rel == "":
			canon = f.canonRoot
		case f.canonRoot == "/":
			canon = "/" + rel
		default:
			canon = f.canonRoot + "/" + rel
		}
		isDir := typ.IsDir()
		h.isDir = func() bool { return isDir }
	} else {
		canon = Canonical(path)
	}
	f.e.mu.RLock()
	defer f.e.mu.RUnlock()
	return f.e.decide(f.c, Access{Tool: f.tool, Kind: KindRead, Paths: []string{path}}, []string{canon}, h)
}
