package permission

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// maxHiddenWalk bounds the entries one search for denied paths visits
// below a directory outside the project (a rule such as Read(~/**/*.pem)
// would otherwise walk the whole home directory).
const maxHiddenWalk = 200_000

// patternSet finds the paths a list of patterns covers and keeps them
// current.
type patternSet struct {
	// fixed are patterns that name one path (a path, or dir/** for a
	// whole directory); fixedDirs the times of the directories holding
	// those paths, when last looked at.
	fixed     []*pathPattern
	fixedDirs map[string]time.Time
	fixedHits []string
	// trees are the walks of the other patterns, by base directory.
	trees map[string]*tree
}

func newPatternSet(patterns []*pathPattern, root string) *patternSet {
	ps := &patternSet{trees: map[string]*tree{}}
	for _, pp := range patterns {
		if pp.whole || pp.starStar {
			ps.fixed = append(ps.fixed, pp)
			continue
		}
		base := filepath.FromSlash(pp.base)
		t, ok := ps.trees[base]
		if !ok {
			c := Canonical(base)
			t = &tree{base: base, inside: c == root || allInside([]string{c}, root), dirs: map[string]*dirState{}}
			ps.trees[base] = t
		}
		t.pps = append(t.pps, pp)
	}
	return ps
}

// refresh brings the set up to date and reports whether anything changed.
func (ps *patternSet) refresh() bool {
	changed := false
	if ps.fixedDirs == nil || !sameTimes(ps.fixedDirs) {
		ps.fixedDirs = map[string]time.Time{}
		ps.fixedHits = nil
		for _, pp := range ps.fixed {
			p := filepath.FromSlash(pp.base)
			ps.fixedDirs[filepath.Dir(p)] = modTime(filepath.Dir(p))
			if _, err := os.Lstat(p); err == nil {
				ps.fixedHits = append(ps.fixedHits, p)
			}
		}
		changed = true
	}
	for _, t := range ps.trees {
		changed = t.refresh() || changed
	}
	return changed
}

// paths returns the covered paths.
func (ps *patternSet) paths() []string {
	out := slices.Clone(ps.fixedHits)
	for _, t := range ps.trees {
		for _, d := range t.dirs {
			out = append(out, d.denied...)
		}
	}
	return out
}

// tree is the walk below one base directory: each directory listed, with
// its time then, the entries the patterns cover and the subdirectories
// walked into.
type tree struct {
	base   string
	pps    []*pathPattern
	inside bool
	dirs   map[string]*dirState
	seen   int
	walked bool
}

type dirState struct {
	mtime   time.Time
	denied  []string
	subdirs []string
}

// refresh walks the tree the first time; later it lists again only the
// directories whose time changed (walking new subdirectories whole and
// forgetting removed ones). It reports whether anything changed.
func (t *tree) refresh() bool {
	if !t.walked {
		t.walked = true
		t.walk(t.base)
		return true
	}
	var changed []string
	for dir, st := range t.dirs {
		if !modTime(dir).Equal(st.mtime) {
			changed = append(changed, dir)
		}
	}
	if len(changed) == 0 {
		return false
	}
	slices.Sort(changed)
	for _, dir := range changed {
		old, ok := t.dirs[dir]
		if !ok {
			continue // forgotten with a removed parent
		}
		t.list(dir)
		now := t.dirs[dir]
		for _, sub := range old.subdirs {
			if now == nil || !slices.Contains(now.subdirs, sub) {
				t.forget(sub)
			}
		}
		if now == nil {
			continue
		}
		for _, sub := range now.subdirs {
			if !slices.Contains(old.subdirs, sub) {
				t.walk(sub)
			}
		}
	}
	return true
}

// walk lists dir and everything below it.
func (t *tree) walk(dir string) {
	t.list(dir)
	if st := t.dirs[dir]; st != nil {
		for _, sub := range st.subdirs {
			t.walk(sub)
		}
	}
}

// list reads one directory: the entries the patterns cover, and the
// subdirectories to walk (not covered ones, not .git). A directory that
// cannot be read, or is gone, is forgotten.
func (t *tree) list(dir string) {
	mtime := modTime(dir)
	ents, err := os.ReadDir(dir)
	if err != nil {
		delete(t.dirs, dir)
		if dir == t.base {
			// Kept, so that its creation later is noticed.
			t.dirs[dir] = &dirState{mtime: mtime}
		}
		return
	}
	st := &dirState{mtime: mtime}
	for _, e := range ents {
		if t.seen++; !t.inside && t.seen > maxHiddenWalk {
			break
		}
		p := filepath.Join(dir, e.Name())
		isDir := e.IsDir()
		if t.covers(p, isDir) {
			st.denied = append(st.denied, p)
			continue
		}
		if isDir && e.Name() != ".git" {
			st.subdirs = append(st.subdirs, p)
		}
	}
	t.dirs[dir] = st
}

// covers reports whether a pattern covers p (whose directories above it
// were covered by none).
func (t *tree) covers(p string, isDir bool) bool {
	for _, pp := range t.pps {
		if pp.match(p, func() bool { return isDir }, true) {
			return true
		}
	}
	return false
}

// forget drops dir and everything below it.
func (t *tree) forget(dir string) {
	prefix := dir + string(filepath.Separator)
	for d := range t.dirs {
		if d == dir || strings.HasPrefix(d, prefix) {
			delete(t.dirs, d)
		}
	}
}

// modTime is a directory's modification time, zero when it is missing.
func modTime(dir string) time.Time {
	info, err := os.Stat(dir)
	if err != nil {
		return time.Time{}
	}
	return info.ModTime()
}

// sameTimes reports whether every directory still has its time.
func sameTimes(dirs map[string]time.Time) bool {
	for d, t := range dirs {
		if !modTime(d).Equal(t) {
			return false
		}
	}
	return true
}
