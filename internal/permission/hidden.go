package permission

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/ponder-agent/ponder/internal/gitignore"
)

// This file finds, on disk, the files and directories that deny rules for
// reading and for writing cover, so that the kernel can keep every
// command away from them (the sandbox's deny layer), not only the tools
// ponder runs itself. A rule is a pattern; the kernel needs paths. The
// paths are found once, by walking what the patterns can reach, and kept
// current: each call checks the directories it listed, and lists again
// only those that have changed (tree.go).

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

// hiddenScan is what the deny rules cover now.
type hiddenScan struct {
	paths DeniedPaths
	// readIDs and writeIDs identify the denied files that have other
	// names (hard links), so that those are denied too.
	readIDs, writeIDs map[fileID]bool
	// linked says some denied file has more than one name.
	linked bool
}

// hiddenCache holds an engine's search for denied paths.
type hiddenCache struct {
	mu          sync.Mutex
	read, write *patternSet
	scan        *hiddenScan
}

// DeniedPaths returns the paths the deny rules for reading (Read, Grep,
// Glob, LS) and for writing (Edit, Write) cover, resolved and current.
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

// hiddenScan returns what the deny rules cover now; the caller holds e.mu.
func (e *Engine) hiddenScan() *hiddenScan {
	c := &e.hidden
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.read == nil {
		read, write := e.denyPatterns()
		c.read, c.write = newPatternSet(read, e.canonRoot), newPatternSet(write, e.canonRoot)
	}
	changed := c.read.refresh()
	changed = c.write.refresh() || changed
	if c.scan != nil && !changed {
		return c.scan
	}
	s := &hiddenScan{readIDs: map[fileID]bool{}, writeIDs: map[fileID]bool{}}
	s.paths.Read = s.identify(c.read.paths(), s.readIDs)
	s.paths.Write = s.identify(c.write.paths(), s.writeIDs)
	if s.linked {
		s.addLinks(e.canonRoot)
	}
	c.scan = s
	return s
}

// denyPatterns returns the path patterns of the deny rules for reading and
// for writing; the caller holds e.mu.
func (e *Engine) denyPatterns() (read, write []*pathPattern) {
	for _, r := range e.deny {
		if r.c == nil || len(r.c.paths) == 0 {
			continue
		}
		switch r.kind() {
		case KindRead:
			read = append(read, r.c.paths...)
		case KindWrite:
			write = append(write, r.c.paths...)
		}
	}
	return read, write
}

// identify resolves the denied paths and notes the identities of the
// files among them (and in denied directories) that have other names.
func (s *hiddenScan) identify(paths []string, ids map[fileID]bool) []string {
	addID := func(info os.FileInfo) {
		if id, n, ok := fileIdentity(info); ok && n > 1 {
			ids[id] = true
			s.linked = true
		}
	}
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		c := Canonical(p)
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
		info, err := os.Stat(c)
		switch {
		case err != nil:
		case !info.IsDir():
			addID(info)
		default:
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
	slices.Sort(out)
	return out
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
