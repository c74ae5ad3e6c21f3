// Package runguard keeps the files that decide what ponder runs next
// (its settings, which hold hooks, MCP servers and permission rules, and
// .mcp.json) as they were across a tool call the user did not approve
// one by one.
//
// The permission engine asks before a call whose words show it writes
// one of these files; but a program can write a file its words do not
// name (tar x, git apply, cp -t with a glob, a script). Whatever the
// spelling, the guard compares the files before and after such a call
// and puts back what changed, so a rule that allows a command never
// becomes the way a model plants a hook for the next session.
package runguard

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/ponder-agent/ponder/internal/atomicfile"
	"github.com/ponder-agent/ponder/internal/smallfile"
)

// maxBytes bounds what the guard keeps of a file; a larger one is only
// noticed, not put back (no settings file ponder reads is that large).
const maxBytes = 1 << 20

// Guard watches a fixed list of files, and the files directly in a few
// directories (such as .git/hooks, where any name is a hook). One guard
// serves every agent of a session, so that it knows when a call the user
// approved runs beside a guarded one.
type Guard struct {
	paths []string
	dirs  []string

	mu       sync.Mutex
	approved int    // calls the user approved that are running now
	epoch    uint64 // counts the starts and ends of those calls
}

// Approved notes that a call the user approved is running, until done
// is called: what it changes is the user's choice, and a guarded call
// running meanwhile cannot tell its changes from that one's, so it puts
// nothing back.
func (g *Guard) Approved() (done func()) {
	if g == nil {
		return func() {}
	}
	g.mu.Lock()
	g.approved++
	g.epoch++
	g.mu.Unlock()
	return func() {
		g.mu.Lock()
		g.approved--
		g.epoch++
		g.mu.Unlock()
	}
}

// quiet reports whether no approved call ran since epoch e.
func (g *Guard) quiet(e uint64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.approved == 0 && g.epoch == e
}

// New returns a guard of the files at paths (absolute).
func New(paths ...string) *Guard {
	return &Guard{paths: append([]string(nil), paths...)}
}

// WithDirs adds directories whose entries are watched as files: one
// created there is removed again.
func (g *Guard) WithDirs(dirs ...string) *Guard {
	g.dirs = append(g.dirs, dirs...)
	return g
}

// maxEntries bounds the entries of a watched directory the guard keeps;
// past it, the directory's new entries are not put back.
const maxEntries = 256

// watched lists the files to compare now: the fixed ones, then the
// entries of the directories, then those the snapshot knew of.
func (g *Guard) watched(known []string) []string {
	out := append([]string(nil), g.paths...)
	seen := map[string]bool{}
	for _, p := range out {
		seen[p] = true
	}
	for _, d := range g.dirs {
		entries, err := os.ReadDir(d)
		if err != nil || len(entries) > maxEntries {
			continue
		}
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".sample") {
				continue // git's inert examples, which git init writes
			}
			if p := filepath.Join(d, e.Name()); !seen[p] && !e.IsDir() {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	for _, p := range known {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
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
}

func (s state) same(o state) bool {
	return s.exists == o.exists && s.link == o.link && s.kept == o.kept && s.mode == o.mode && s.parent == o.parent && bytes.Equal(s.data, o.data)
}

// Snapshot is the files' state at one moment.
type Snapshot struct {
	g     *Guard
	epoch uint64
	paths []string
	files []state
}

// Take records the files as they are now.
func (g *Guard) Take() Snapshot {
	if g == nil {
		return Snapshot{}
	}
	g.mu.Lock()
	s := Snapshot{g: g, epoch: g.epoch, paths: g.watched(nil)}
	g.mu.Unlock()
	s.files = make([]state, len(s.paths))
	for i, p := range s.paths {
		s.files[i] = read(p)
	}
	return s
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

// Change is one file a call changed, and whether it was put back.
type Change struct {
	Path string
	// Err says why the file could not be put back; nil when it was.
	Err error
}

// Restore compares the files with the snapshot and puts back each one
// that changed: its content, its link, or its absence. A file whose
// content was not kept is reported with an error. When a call the user
// approved ran meanwhile, nothing is put back.
func (s Snapshot) Restore() []Change {
	if s.g == nil || !s.g.quiet(s.epoch) {
		return nil
	}
	before := map[string]state{}
	for i, p := range s.paths {
		before[p] = s.files[i]
	}
	var out []Change
	for _, p := range s.g.watched(s.paths) {
		before := before[p]
		if read(p).same(before) {
			continue
		}
		out = append(out, Change{Path: p, Err: putBack(p, before)})
	}
	return out
}

// putBack makes the file at path as before was. A link put in place of
// its directory is removed first, and the directory made again, so that
// nothing is written through it.
func putBack(path string, before state) error {
	if dir := filepath.Dir(path); readlink(dir) != before.parent && before.parent == "" {
		if err := os.Remove(dir); err != nil {
			return err
		}
		if before.exists {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
		}
	}
	now, err := os.Lstat(path)
	exists := err == nil
	if exists && now.IsDir() {
		return errors.New("it is now a directory")
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

func readlink(path string) string {
	l, _ := os.Readlink(path)
	return l
}
