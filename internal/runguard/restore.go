package runguard

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/ponder-agent/ponder/internal/atomicfile"
)

// Change is one file a call changed, and whether it was put back.
type Change struct {
	Path string
	// Err says why the file could not be put back; nil when it was.
	Err error
}

// Restore compares the files with the snapshot and puts back each one
// that changed: its content, its link, or its absence. In a watched tree
// a new file is removed, and so is a new directory left empty; a link
// put in place of a tree or of a directory in it goes, and the files are
// written again. A file whose content was not kept is reported with an
// error. When a call the user approved ran meanwhile, nothing is put
// back.
func (s Snapshot) Restore() []Change {
	if s.g == nil || !s.g.quiet(s.epoch) {
		return nil
	}
	var out []Change
	var newDirs []string
	for i, t := range s.set.Trees {
		before := s.roots[i]
		if c, ok := restoreRoot(t.Path, before); ok {
			out = append(out, c)
		}
		if before.partial {
			continue
		}
		if !before.exists {
			newDirs = append(newDirs, t.Path) // a new tree, once emptied
		}
		// Whatever the call made is walked whole, however many entries
		// or levels it holds: a bound would be a place to hide a plant.
		l := walk(t, 0, func(d string) bool { return !s.dirs[d] && !s.edges[d] })
		for _, f := range l.files {
			if _, known := s.files[f]; !known {
				out = append(out, Change{Path: f, Err: os.Remove(f)})
			}
		}
		for _, d := range l.dirs {
			if !s.dirs[d] {
				newDirs = append(newDirs, d)
			}
		}
	}
	// Deepest first, so that a new directory inside a new one goes too.
	sort.Slice(newDirs, func(i, j int) bool { return len(newDirs[i]) > len(newDirs[j]) })
	for _, d := range newDirs {
		os.Remove(d) // only when empty: what is left is the user's
	}
	parents := parentLinks{}
	for _, p := range s.paths {
		before := s.files[p]
		now, changed := s.changed(p, before, parents)
		if !changed {
			continue
		}
		if inert := s.set.Inert[p]; inert != nil && plain(before) && plain(now) && inert(before.data, now.data) {
			continue // an absent file counts as an empty one
		}
		out = append(out, Change{Path: p, Err: putBack(p, before)})
	}
	return out
}

// plain reports whether st is a file whose whole content is known, or no
// file at all, and no link.
func plain(st state) bool {
	return st.link == "" && (!st.exists || st.kept) && st.parent == ""
}

// changed reads the file at p again unless its signature shows it is as
// before, and reports whether it differs.
func (s Snapshot) changed(p string, before state, parents parentLinks) (state, bool) {
	if before.hasSig && !before.sig.racy(s.start) {
		if info, err := os.Lstat(p); err == nil && info.Mode()&fs.ModeSymlink == 0 {
			if now, ok := sigOf(info); ok && now == before.sig && parents.of(p) == before.parent {
				return before, false
			}
		}
	}
	now := read(p)
	if !before.kept && before.exists && now.exists && now.link == before.link && now.mode == before.mode && before.hasSig {
		// Too large to keep: only its signature tells.
		if info, err := os.Lstat(p); err == nil {
			if sg, ok := sigOf(info); ok && sg == before.sig {
				return now, false
			}
		}
	}
	return now, !now.same(before)
}

// restoreRoot undoes a change of a tree's own directory: a link or a
// file put in its place goes, and the directory is made again when it
// was there.
func restoreRoot(p string, before root) (Change, bool) {
	now := rootOf(p)
	switch {
	case now == (root{}) || (now.dir && before.dir && now.link == before.link):
		return Change{}, false
	case !now.exists:
		return Change{}, false // a removed tree: its files are put back one by one
	case before.exists && before.link != "" && now.link == before.link:
		return Change{}, false
	case !before.exists && now.dir && now.link == "":
		return Change{}, false // a new tree: its new files are removed one by one
	}
	c := Change{Path: p}
	if c.Err = os.Remove(p); c.Err != nil {
		return c, true
	}
	switch {
	case before.link != "":
		c.Err = os.Symlink(before.link, p)
	case before.dir:
		c.Err = os.MkdirAll(p, 0o755)
	}
	return c, true
}

// putBack makes the file at path as before was. A link put in place of
// its directory is removed first, and the directory made again, so that
// nothing is written through it.
func putBack(path string, before state) error {
	dir := filepath.Dir(path)
	if readlink(dir) != before.parent && before.parent == "" {
		if err := os.Remove(dir); err != nil {
			return err
		}
	}
	if before.exists {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	now, err := os.Lstat(path)
	exists := err == nil
	if exists && now.IsDir() {
		// A directory in place of the file: when it is empty (the
		// guard removed what was planted in it), it goes.
		if err := os.Remove(path); err != nil {
			return errors.New("it is now a directory")
		}
		exists = false
	}
	switch {
	case !before.exists:
		if exists {
			return os.Remove(path)
		}
		return nil
	case before.link != "":
		if exists && (now.Mode()&fs.ModeSymlink == 0 || readlink(path) != before.link) {
			if err := os.Remove(path); err != nil {
				return err
			}
			return os.Symlink(before.link, path)
		}
		if !exists {
			return os.Symlink(before.link, path)
		}
		// The same link: what it leads to changed.
		if !before.kept {
			return errors.New("its earlier content was too large to keep")
		}
		return atomicfile.Write(path, before.data, before.mode.Perm())
	case !before.kept:
		return errors.New("its earlier content was too large to keep")
	}
	if exists && now.Mode()&fs.ModeSymlink != 0 {
		if err := os.Remove(path); err != nil {
			return err
		}
	}
	return atomicfile.WriteNoFollow(path, before.data, before.mode.Perm())
}
