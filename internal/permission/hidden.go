package permission

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/ponder-agent/ponder/internal/gitignore"
)

// This file finds, on disk, the files and directories that deny rules for
// reading and for writing cover, so that the kernel can keep every
// command away from them (the sandbox's deny layer), not only the tools
// ponder runs itself. A rule is a pattern; the kernel needs paths. The
// paths are found once and found again when a directory they were found
// in has changed since.

// DeniedPaths are the paths deny rules cover, resolved, for the kernel to
// enforce.
type DeniedPaths struct {
	// Read are the files and directories no command may read.
	Read []string
	// Write are the files and directories no command may write.
	Write []string
	// ReadOutside are those of Read outside the project root.
	ReadOutside []string
}

// maxHiddenWalk bounds the entries one search for denied paths visits
// below a directory outside the project (a rule such as Read(~/**/*.pem)
// would otherwise walk the whole home directory).
const maxHiddenWalk = 200_000

// hiddenScan is one search's result, with what tells whether it is still
// current.
type hiddenScan struct {
	paths DeniedPaths
	// readIDs and writeIDs identify the denied files, so that another
	// name for one (a hard link) is denied too.
	readIDs, writeIDs map[fileID]bool
	// linked says some denied file has more than one name.
	linked bool
	// dirs are the directories the search listed or looked in, with
	// their modification times: a file created, removed or renamed in one
	// changes its time.
	dirs map[string]time.Time
}

// hiddenCache holds the last scan of an engine.
type hiddenCache struct {
	mu   sync.Mutex
	scan *hiddenScan
}

// DeniedPaths returns the paths the deny rules for reading (Read, Grep,
// Glob, LS) and for writing (Edit, Write) cover, resolved. They are found
// on the first call and again whenever a directory of the last search has
// changed.
func (e *Engine) DeniedPaths() DeniedPaths {
	e.mu.RLock()
	defer e.mu.RUnlock()
	s := e.hiddenScan()
	d := DeniedPaths{Read: slices.Clone(s.paths.Read), Write: slices.Clone(s.paths.Write)}
	for _, p := range s.paths.Read {
		if p != e.canonRoot && !allInside([]string{p}, e.canonRoot) {
			d.ReadOutside = append(d.ReadOutside, p)
		}
	}
	return d
}

// hiddenScan returns a current scan; the caller holds e.mu.
func (e *Engine) hiddenScan() *hiddenScan {
	e.hidden.mu.Lock()
	defer e.hidden.mu.Unlock()
	if s := e.hidden.scan; s != nil && s.current() {
		return s
	}
	read, write := e.denyPatterns()
	s := &hiddenScan{readIDs: map[fileID]bool{}, writeIDs: map[fileID]bool{}, dirs: map[string]time.Time{}}
	s.paths.Read = s.find(read, s.readIDs, e.canonRoot)
	s.paths.Write = s.find(write, s.writeIDs, e.canonRoot)
	if s.linked {
		s.addLinks(e.canonRoot)
	}
	e.hidden.scan = s
	return s
}

// current reports whether no directory of the scan has changed.
func (s *hiddenScan) current() bool {
	for dir, mtime := range s.dirs {
		info, err := os.Stat(dir)
		if err != nil {
			if !mtime.IsZero() {
				return false
			}
			continue
		}
		if !info.ModTime().Equal(mtime) {
			return false
		}
	}
	return true
}

// note records a directory the scan depends on.
func (s *hiddenScan) note(dir string) {
	if _, ok := s.dirs[dir]; ok {
		return
	}
	var t time.Time
	if info, err := os.Stat(dir); err == nil {
		t = info.ModTime()
	}
	s.dirs[dir] = t
}

// denyPatterns returns the path patterns of the deny rules for reading and
// for writing; the caller holds e.mu.
func (e *Engine) denyPatterns() (read, write []*pathPattern) {
	for _, r := range e.deny {
		if r.c == nil || len(r.c.paths) == 0 {
			continue
		}
		switch ruleKind(r.Tool) {
		case KindRead:
			read = append(read, r.c.paths...)
		case KindWrite:
			write = append(write, r.c.paths...)
		}
	}
	return read, write
}

// find returns the paths the patterns cover: a pattern without wildcards
// names its path; one with wildcards is matched against everything below
// its base directory (ignored files included). ids collects the denied
// files.
func (s *hiddenScan) find(patterns []*pathPattern, ids map[fileID]bool, root string) []string {
	found := map[string]bool{}
	addID := func(info os.FileInfo) {
		if id, n, ok := fileIdentity(info); ok && n > 1 {
			ids[id] = true
			s.linked = true
		}
	}
	add := func(p string) {
		c := Canonical(p)
		found[c] = true
		info, err := os.Stat(c)
		switch {
		case err != nil:
		case !info.IsDir():
			addID(info)
		default:
			// The files of a denied directory may have other names too.
			n := 0
			_ = filepath.WalkDir(c, func(q string, de fs.DirEntry, err error) error {
				if n++; err != nil || n > maxHiddenWalk {
					return fs.SkipAll
				}
				if de.Type().IsRegular() {
					if fi, err := de.Info(); err == nil {
						addID(fi)
					}
				}
				return nil
			})
		}
	}
	byBase := map[string][]*pathPattern{}
	for _, pp := range patterns {
		base := filepath.FromSlash(pp.base)
		// A pattern naming a path, or everything below a directory
		// (dir/**), denies that path as a whole.
		if pp.whole || pp.starStar {
			s.note(filepath.Dir(base))
			if _, err := os.Lstat(base); err == nil {
				add(base)
			}
			continue
		}
		byBase[base] = append(byBase[base], pp)
	}
	for base, pps := range byBase {
		s.walk(base, root, func(path string, isDir bool) bool {
			for _, pp := range pps {
				if pp.match(path, func() bool { return isDir }, true) {
					add(path)
					return true
				}
			}
			return false
		})
	}
	out := make([]string, 0, len(found))
	for p := range found {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// walk visits everything below base, ignored files included (not .git),
// noting each directory. match reports whether an entry is denied; a
// denied directory is not entered. Below a directory outside the project
// the walk stops after maxHiddenWalk entries.
func (s *hiddenScan) walk(base, root string, match func(path string, isDir bool) bool) {
	s.note(base)
	if info, err := os.Stat(base); err != nil || !info.IsDir() {
		return
	}
	inside := Canonical(base) == root || allInside([]string{Canonical(base)}, root)
	var mu sync.Mutex
	var n int
	_ = gitignore.New(base).Walk(context.Background(), "", gitignore.WalkOptions{All: true}, func(en gitignore.Entry) error {
		mu.Lock()
		defer mu.Unlock()
		n++
		if !inside && n > maxHiddenWalk {
			return fs.SkipAll
		}
		isDir := en.IsDir()
		if match(en.Path, isDir) {
			if isDir {
				return fs.SkipDir
			}
			return nil
		}
		if isDir {
			s.note(en.Path)
		}
		return nil
	})
}

// addLinks finds the other names (hard links) of denied files inside the
// project and denies them too: one name of a file is as good as another.
func (s *hiddenScan) addLinks(root string) {
	more := map[string][]string{}
	_ = gitignore.New(root).Walk(context.Background(), "", gitignore.WalkOptions{All: true}, func(en gitignore.Entry) error {
		if !en.Type.IsRegular() {
			return nil
		}
		info, err := os.Lstat(en.Path)
		if err != nil {
			return nil
		}
		id, n, ok := fileIdentity(info)
		if !ok || n < 2 {
			return nil
		}
		if s.readIDs[id] {
			more["read"] = append(more["read"], en.Path)
		}
		if s.writeIDs[id] {
			more["write"] = append(more["write"], en.Path)
		}
		return nil
	})
	s.paths.Read = mergePaths(s.paths.Read, more["read"])
	s.paths.Write = mergePaths(s.paths.Write, more["write"])
}

// hardLinkDenied is the decision on another name of a denied file.
func hardLinkDenied(p string) Decision {
	return Decision{Behavior: Deny, Rule: "deny rule (hard link)", Reason: fmt.Sprintf(
		"%s is another name (a hard link) of a file the deny rules cover, so the same rules apply to it.", p)}
}

func mergePaths(a, b []string) []string {
	for _, p := range b {
		if c := Canonical(p); !slices.Contains(a, c) {
			a = append(a, c)
		}
	}
	slices.Sort(a)
	return a
}

// deniedLink reports whether p is another name of a file a deny rule
// covers (read says for reading, else for writing): a file with more than
// one hard link whose identity is a denied file's. The caller holds e.mu.
func (e *Engine) deniedLink(p string, read bool) bool {
	s := e.hiddenScan()
	return s.linked && s.isLink(p, read)
}

// isLink is deniedLink for this scan.
func (s *hiddenScan) isLink(p string, read bool) bool {
	info, err := os.Stat(p)
	if err != nil || info.IsDir() {
		return false
	}
	id, n, ok := fileIdentity(info)
	if !ok || n < 2 {
		return false
	}
	if read {
		return s.readIDs[id]
	}
	return s.writeIDs[id]
}
