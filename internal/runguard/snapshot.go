package runguard

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/internal/smallfile"
)

// sig is what tells, without reading it, that a file may have changed.
type sig struct {
	size         int64
	mode         fs.FileMode
	ino, dev     uint64
	mtime, ctime int64
}

// racyWindow (a variable for the benchmark) is how close to a snapshot a file's times may be before its
// signature is not trusted: a write in the same tick of the file system's
// clock leaves the times as they were.
var racyWindow = int64(2 * time.Second)

// racy reports whether s was written so close to the moment start that
// an equal signature does not prove an equal content.
func (s sig) racy(start int64) bool {
	return max(s.mtime, s.ctime) >= start-racyWindow
}

// state is what the guard knows of one file.
type state struct {
	exists bool
	link   string // the target, when the path is a symbolic link
	data   []byte // the content (through a link), when kept
	kept   bool   // data holds the whole content
	mode   fs.FileMode
	// parent is the target when the file's directory is a link, which
	// leads the file somewhere else.
	parent string
	sig    sig
	hasSig bool
}

func (s state) same(o state) bool {
	return s.exists == o.exists && s.link == o.link && s.kept == o.kept && s.mode == o.mode && s.parent == o.parent && bytes.Equal(s.data, o.data)
}

// root is what a tree's own directory was.
type root struct {
	exists, dir bool
	link        string
	partial     bool // the tree was too large to walk whole
}

// Snapshot is the files' state at one moment.
type Snapshot struct {
	g     *Guard
	set   Set
	epoch uint64
	start int64
	paths []string         // every file watched, in order
	files map[string]state // by path
	dirs  map[string]bool  // the directories inside the trees
	edges map[string]bool  // those at the depth bound, not walked
	roots []root           // by tree
}

// Take records the files as they are now, all of them: around a command
// (Bash, an external tool), which may write any file.
func (g *Guard) Take() Snapshot { return g.take(true) }

// TakeTool is Take without the files watched only around commands
// (Set.CommandPaths, Set.CommandTrees): around a file tool, which writes
// only the file the user's rules or answer let it.
func (g *Guard) TakeTool() Snapshot { return g.take(false) }

func (g *Guard) take(commands bool) Snapshot {
	if g == nil {
		return Snapshot{}
	}
	g.mu.Lock()
	s := Snapshot{g: g, epoch: g.epoch, start: time.Now().UnixNano(), files: map[string]state{}, dirs: map[string]bool{}, edges: map[string]bool{}}
	g.mu.Unlock()
	s.set = g.set
	if g.source != nil {
		s.set = s.set.with(g.source())
	}
	if commands {
		s.set.Paths = append(s.set.Paths, s.set.CommandPaths...)
		s.set.Trees = append(s.set.Trees, s.set.CommandTrees...)
	}
	s.set.CommandPaths, s.set.CommandTrees = nil, nil
	parents := parentLinks{}
	add := func(p string) {
		if _, ok := s.files[p]; !ok {
			s.paths = append(s.paths, p)
			s.files[p] = g.readCached(p, s.start, parents)
		}
	}
	for _, p := range s.set.Paths {
		add(p)
	}
	for _, t := range s.set.Trees {
		r := rootOf(t.Path)
		l := walk(t, maxTreeEntries, nil)
		r.partial = !l.complete
		s.roots = append(s.roots, r)
		for _, d := range l.dirs {
			s.dirs[d] = true
		}
		for _, d := range l.edges {
			s.edges[d] = true
		}
		for _, f := range l.files {
			add(f)
		}
	}
	return s
}

func rootOf(p string) root {
	info, err := os.Lstat(p)
	if err != nil {
		return root{}
	}
	return root{exists: true, dir: info.IsDir(), link: readlink(p)}
}

// listing is what a walk of a tree found.
type listing struct {
	files []string // anything but a directory, links included
	dirs  []string // the directories walked
	// edges are the directories at the depth bound, not walked.
	edges    []string
	complete bool // false when the walk stopped at maxTreeEntries
}

// walk lists a tree without following links below its root. limit
// bounds the entries (0: none); past the depth bound, a directory is
// walked (without bound) only when deeper says so.
func walk(t Tree, limit int, deeper func(dir string) bool) listing {
	depth := t.Depth
	if depth <= 0 || depth > maxDepth {
		depth = maxDepth
	}
	var l listing
	n := 0
	var visit func(dir string, level int, bounded bool) bool
	visit = func(dir string, level int, bounded bool) bool {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return true
		}
		for _, e := range entries {
			if n++; limit > 0 && n > limit {
				return false
			}
			name := e.Name()
			if level == 1 && (slices.Contains(t.Skip, name) || (t.Match != nil && !t.Match(name))) {
				continue
			}
			p := filepath.Join(dir, name)
			if e.IsDir() {
				switch {
				case !bounded || level < depth:
					l.dirs = append(l.dirs, p)
					if !visit(p, level+1, bounded) {
						return false
					}
				case deeper != nil && deeper(p):
					l.dirs = append(l.dirs, p)
					if !visit(p, level+1, false) {
						return false
					}
				default:
					l.edges = append(l.edges, p)
				}
				continue
			}
			if strings.HasSuffix(name, ".sample") {
				continue // git's inert examples, which git init writes
			}
			l.files = append(l.files, p)
		}
		return true
	}
	l.complete = visit(t.Path, 1, true)
	return l
}

// readCached reads the file at path, taking its content from the cache
// when its signature says it has not changed since.
func (g *Guard) readCached(path string, start int64, parents parentLinks) state {
	parent := parents.of(path)
	info, err := os.Lstat(path)
	if err != nil {
		return state{parent: parent}
	}
	sg, ok := sigOf(info)
	if info.Mode()&fs.ModeSymlink != 0 {
		ok = false // what the link leads to may change under the same link
	}
	g.cacheMu.Lock()
	defer g.cacheMu.Unlock()
	if c, hit := g.cache[path]; ok && hit && c.hasSig && c.sig == sg && c.parent == parent && !sg.racy(start) {
		return c
	}
	st := read(path)
	st.sig, st.hasSig = sg, ok
	if old, hit := g.cache[path]; hit {
		g.kept -= len(old.data)
		delete(g.cache, path)
	}
	if ok && g.kept+len(st.data) <= maxKept {
		g.cache[path] = st
		g.kept += len(st.data)
	} else if g.kept+len(st.data) > maxKept {
		st.data, st.kept = nil, false
	}
	return st
}

func read(path string) state {
	parent := readlink(filepath.Dir(path))
	info, err := os.Lstat(path)
	if err != nil {
		return state{parent: parent}
	}
	st := state{exists: true, mode: info.Mode(), parent: parent}
	if info.Mode()&fs.ModeSymlink != 0 {
		st.link, _ = os.Readlink(path)
		if target, err := os.Stat(path); err == nil {
			st.mode = fs.ModeSymlink | target.Mode().Perm()
		}
	}
	if data, err := smallfile.Read(path, maxBytes); err == nil {
		st.data, st.kept = data, true
	}
	return st
}

// parentLinks remembers, for one comparison, where each directory's link
// leads ("" for a directory): most watched files share a few.
type parentLinks map[string]string

func (m parentLinks) of(path string) string {
	dir := filepath.Dir(path)
	l, ok := m[dir]
	if !ok {
		l = readlink(dir)
		m[dir] = l
	}
	return l
}

func readlink(path string) string {
	l, _ := os.Readlink(path)
	return l
}
