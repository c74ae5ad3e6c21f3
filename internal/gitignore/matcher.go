package gitignore

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Matcher holds the ignore rules that apply inside one directory tree: the
// repository's .git/info/exclude, the .gitignore files of the root's
// parent directories up to the repository top, and the .gitignore files
// inside the tree, read as they are needed. A Matcher is safe for
// concurrent use.
type Matcher struct {
	root    string // absolute and clean
	top     string // repository top, or root when there is no repository
	rootOff int    // where a path below root starts its root-relative part
	topOff  int    // same for top
	prefix  string // root relative to top, "" when they are the same
	base    *frame // rules from above root

	mu   sync.Mutex
	dirs map[string]*frame // rules inside a directory, by root-relative path
}

// frame is the patterns of one ignore file, linked to those of the
// directories above it. Frames never change once built, so walkers on many
// goroutines share them freely.
type frame struct {
	parent *frame
	dir    string // directory holding the patterns, relative to top; "" is top
	list   List
}

func (f *frame) push(dir string, l List) *frame {
	if len(l) == 0 {
		return f
	}
	return &frame{parent: f, dir: dir, list: l}
}

// ignored applies the chain to topRel, a path relative to the top. The
// deepest file's last matching pattern decides.
func (f *frame) ignored(topRel string, isDir bool) bool {
	for ; f != nil; f = f.parent {
		rel := topRel
		if f.dir != "" {
			rel = topRel[len(f.dir)+1:]
		}
		if ign, ok := f.list.Match(rel, isDir); ok {
			return ign
		}
	}
	return false
}

// New returns a Matcher for the tree at root. root should be absolute; it
// is cleaned. Missing or unreadable ignore files count as empty.
func New(root string) *Matcher {
	root = filepath.Clean(root)
	m := &Matcher{root: root, top: root, dirs: map[string]*frame{}}
	if top, gitDir := findRepo(root); top != "" {
		m.top = top
		m.base = m.base.push("", loadList(filepath.Join(gitDir, "info", "exclude")))
		if top != root {
			m.prefix = filepath.ToSlash(strings.TrimPrefix(root[len(top):], string(filepath.Separator)))
			m.base = m.base.push("", loadList(filepath.Join(top, ".gitignore")))
			parts := strings.Split(m.prefix, "/")
			for i := 1; i < len(parts); i++ {
				dir := strings.Join(parts[:i], "/")
				m.base = m.base.push(dir, loadList(filepath.Join(top, filepath.FromSlash(dir), ".gitignore")))
			}
		}
	}
	m.rootOff = offsetAfter(m.root)
	m.topOff = offsetAfter(m.top)
	return m
}

// offsetAfter is where the relative part of a path below dir begins.
func offsetAfter(dir string) int {
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return len(dir)
	}
	return len(dir) + 1
}

// findRepo looks for the git repository holding dir and returns its top
// directory and its git directory, or empty strings when there is none.
func findRepo(dir string) (top, gitDir string) {
	for {
		dotGit := filepath.Join(dir, ".git")
		if info, err := os.Stat(dotGit); err == nil {
			if info.IsDir() {
				return dir, dotGit
			}
			return dir, resolveGitFile(dir, dotGit)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ""
		}
		dir = parent
	}
}

// resolveGitFile follows a ".git" file ("gitdir: PATH", used by worktrees
// and submodules) to the directory holding info/exclude.
func resolveGitFile(dir, dotGit string) string {
	data, err := os.ReadFile(dotGit)
	if err != nil {
		return dotGit
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return dotGit
	}
	target = strings.TrimSpace(target)
	if !filepath.IsAbs(target) {
		target = filepath.Join(dir, target)
	}
	// A linked worktree keeps shared files such as info/exclude in the
	// common directory.
	if common, err := os.ReadFile(filepath.Join(target, "commondir")); err == nil {
		c := strings.TrimSpace(string(common))
		if !filepath.IsAbs(c) {
			c = filepath.Join(target, c)
		}
		return c
	}
	return target
}

func loadList(path string) List {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return Parse(data)
}

// topRel turns a root-relative path into a top-relative one.
func (m *Matcher) topRel(rel string) string {
	switch {
	case m.prefix == "":
		return rel
	case rel == "":
		return m.prefix
	}
	return m.prefix + "/" + rel
}

// abs turns a root-relative slash path into an absolute path.
func (m *Matcher) abs(rel string) string {
	if rel == "" {
		return m.root
	}
	return filepath.Join(m.root, filepath.FromSlash(rel))
}

// frameFor returns the rules that apply to the entries of directory rel
// (root-relative), reading .gitignore files as needed.
func (m *Matcher) frameFor(rel string) *frame {
	m.mu.Lock()
	f, ok := m.dirs[rel]
	m.mu.Unlock()
	if ok {
		return f
	}
	parent := m.base
	if rel != "" {
		dir := ""
		if i := strings.LastIndexByte(rel, '/'); i >= 0 {
			dir = rel[:i]
		}
		parent = m.frameFor(dir)
	}
	f = parent.push(m.topRel(rel), loadList(filepath.Join(m.abs(rel), ".gitignore")))
	m.mu.Lock()
	m.dirs[rel] = f
	m.mu.Unlock()
	return f
}

// Ignored reports whether rel, a slash-separated path relative to the
// root, is ignored. isDir says whether rel names a directory. A path inside
// an ignored directory is ignored, whatever later patterns say, and so is
// anything inside .git. Paths outside the root are never ignored.
func (m *Matcher) Ignored(rel string, isDir bool) bool {
	rel = filepath.ToSlash(filepath.Clean(filepath.FromSlash(rel)))
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, "/") {
		return false
	}
	start := 0
	for {
		end := len(rel)
		last := true
		if j := strings.IndexByte(rel[start:], '/'); j >= 0 {
			end, last = start+j, false
		}
		if rel[start:end] == ".git" {
			return true
		}
		parent := ""
		if start > 0 {
			parent = rel[:start-1]
		}
		if m.frameFor(parent).ignored(m.topRel(rel[:end]), !last || isDir) {
			return true
		}
		if last {
			return false
		}
		start = end + 1
	}
}
