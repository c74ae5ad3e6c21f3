package permission

import (
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/ponder-agent/ponder/internal/permission/shellclass"
)

// ReadFilter judges the files and directories a reading tool (Grep, Glob,
// LS) comes across below a root the engine has already let it read, so
// that every file a tool reads or lists passes the same rules as a Read of
// that file. The verdict is Decide's own; the filter only spares it work a
// walk makes unnecessary:
//
//   - The entries of a directory listing need no symlink resolution:
//     their resolved path is the root's plus the same relative part,
//     since walks do not follow links. A symbolic link is resolved and
//     judged in full.
//   - A walk checks each directory before it descends, so only the
//     entry's own name can still make a rule match.
//   - Rules whose patterns cannot reach below the root are set aside once,
//     and an entry that no remaining deny or ask pattern matches is read
//     like any file, which is what Decide would say.
//
// When the call itself had to be approved (an ask rule covers its root),
// that approval extends to what lies below: ask rules do not hide entries
// then, deny rules still do.
type ReadFilter struct {
	e               *Engine
	c               Context
	tool            string
	root, canonRoot string
	// pats are the deny and ask patterns that can match below the root;
	// fast is false when something else could refuse a read (a rule
	// without a pattern, /proc), so that every entry goes to decide.
	pats     []*pathPattern
	fast     bool
	approved bool
	// links is the engine's search for denied paths when some denied
	// file has another name (a hard link) that entries must be checked
	// against; nil otherwise.
	links *hiddenScan
}

// ReadFilter returns the filter for a walk by tool below root, in context
// c (the same context as the call's own decision).
func (e *Engine) ReadFilter(c Context, tool, root string) *ReadFilter {
	root = filepath.Clean(root)
	f := &ReadFilter{e: e, c: c, tool: tool, root: root, canonRoot: Canonical(root)}
	e.mu.RLock()
	defer e.mu.RUnlock()
	a := Access{Tool: tool, Kind: KindRead, Paths: []string{root}}
	f.approved = e.decide(c, a, []string{f.canonRoot}, pathHints{}, shellclass.Result{}).Behavior == Ask
	f.fast = !nearProc(f.root) && !nearProc(f.canonRoot)
	if s := e.hiddenScan(); s.linked {
		f.links = s
	}
	for _, rules := range [][]Rule{e.deny, e.ask} {
		for _, r := range rules {
			if !applies(r, a) {
				continue
			}
			if r.c == nil || r.c.paths == nil {
				f.fast = false
				continue
			}
			for _, pp := range r.c.paths {
				if related(pp.base, f.root) || related(pp.base, f.canonRoot) {
					f.pats = append(f.pats, pp)
				}
			}
		}
	}
	return f
}

// related reports whether one of two clean absolute paths is the other or
// lies below it.
func related(a, b string) bool {
	a, b = filepath.ToSlash(a), filepath.ToSlash(b)
	if foldCase {
		a, b = strings.ToLower(a), strings.ToLower(b)
	}
	_, ab := below(a, b)
	_, ba := below(b, a)
	return ab || ba
}

// nearProc reports whether dir is /proc, inside it, or above it.
func nearProc(dir string) bool {
	return related(dir, procRoot)
}

// allowed is the verdict for an entry no rule touches.
var allowed = Decision{Behavior: Allow, Rule: "mode", Reason: "Reading is allowed."}

// Check decides whether the entry at path, whose type bits the directory
// listing gave as typ, may be read (or listed). A directory that may not
// is not to be entered either.
func (f *ReadFilter) Check(path string, typ fs.FileMode) Decision {
	if f.links != nil && typ.IsRegular() && f.links.isLink(path, true) {
		return hardLinkDenied(path)
	}
	link := typ&fs.ModeSymlink != 0
	var canon string
	h := pathHints{leafOnly: !link}
	if rel, ok := below(f.root, path); ok && !link {
		switch {
		case f.canonRoot == f.root:
			canon = path
		case rel == "":
			canon = f.canonRoot
		case f.canonRoot == "/":
			canon = "/" + rel
		default:
			canon = f.canonRoot + "/" + rel
		}
		isDir := typ.IsDir()
		h.isDir = func() bool { return isDir }
		if f.fast && !f.touched(path, canon, h) {
			return allowed
		}
	} else {
		canon = Canonical(path)
	}
	f.e.mu.RLock()
	d := f.e.decide(f.c, Access{Tool: f.tool, Kind: KindRead, Paths: []string{path}}, []string{canon}, h, shellclass.Result{})
	f.e.mu.RUnlock()
	if d.Behavior == Ask && f.approved {
		return Decision{Behavior: Allow, Rule: "user", Reason: "The user approved reading " + f.root + "."}
	}
	return d
}

// touched reports whether a deny or ask pattern matches the entry in
// either form.
func (f *ReadFilter) touched(path, canon string, h pathHints) bool {
	name := path[strings.LastIndexByte(path, filepath.Separator)+1:]
	if foldCase {
		name = strings.ToLower(name)
	}
	for _, pp := range f.pats {
		// The name alone turns most entries away from a pattern without
		// a wildcard-free directory part (the usual *.pem, .env).
		if pp.basename && !pp.whole && pp.dirGlob == nil &&
			(!strings.HasPrefix(name, pp.pre) || !strings.HasSuffix(name, pp.post)) {
			continue
		}
		if pp.match(path, h.isDir, true) || (canon != path && pp.match(canon, h.isDir, true)) {
			return true
		}
	}
	return false
}
