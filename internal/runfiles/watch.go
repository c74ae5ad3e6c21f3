package runfiles

import (
	"path/filepath"
	"slices"
	"strings"
)

// WatchedTree is a directory the settings guard compares whole.
type WatchedTree struct {
	Path string
	// Skip names entries directly below Path left alone.
	Skip []string
	// Depth bounds the levels compared; 0 means every level.
	Depth int
	// Match, when set, picks the entries directly below Path compared
	// (the table's name patterns, at a root); the others are left alone.
	Match func(name string) bool
}

// Watched is what the settings guard compares around a call that runs
// unconfined without the user's own yes.
type Watched struct {
	Files []string
	Trees []WatchedTree
	// CommandFiles and CommandTrees are compared only around commands
	// (Bash, external tools): the table's rows not marked Watch. A file
	// tool writes one of those only when the user said yes or wrote a
	// rule naming it (accept-edits asks for every row), and that choice
	// stands; a command writes files its words do not name.
	CommandFiles []string
	CommandTrees []WatchedTree
	// GitConfig lists git's config files, whose changes stand when they
	// touch no setting that runs something (see GitConfigChangeRuns).
	GitConfig []string
}

// Watch returns what the guard compares for a project whose directories
// are roots (its root and the directory ponder runs in): every row of the
// table at each root but those ordinary commands write (Written), the
// name patterns (lefthook.*, *.mk) as the matching entries of their
// directory, ponder's config directory whole but for its records, and
// what git reads (its config, its hooks, the directory core.hooksPath
// names, the files include.path names and the git directory's other
// config files: see GitTargets). An existence check costs one lstat, so
// rows are watched whether or not the file is there: one a command
// creates is removed again.
func Watch(roots []string, home, configDir string) Watched {
	var w Watched
	seen := map[string]bool{}
	treeTo := func(to *[]WatchedTree, t WatchedTree) {
		t.Path = filepath.Clean(t.Path)
		if !seen[t.Path] {
			seen[t.Path] = true
			*to = append(*to, t)
		}
	}
	fileTo := func(to *[]string, p string) {
		p = filepath.Clean(p)
		if !seen[p] {
			seen[p] = true
			*to = append(*to, p)
		}
	}
	tree := func(t WatchedTree) { treeTo(&w.Trees, t) }
	file := func(p string) { fileTo(&w.Files, p) }
	if configDir != "" {
		tree(WatchedTree{Path: configDir, Skip: ConfigRecords})
	}
	for _, root := range roots {
		globs := map[string][]string{} // patterns by the directory they name entries of
		var globDirs []string
		for _, e := range Table() {
			if e.Written {
				continue
			}
			p := filepath.Join(root, filepath.FromSlash(e.Pattern))
			files, trees := &w.CommandFiles, &w.CommandTrees
			if e.Watch {
				files, trees = &w.Files, &w.Trees
			}
			switch {
			case strings.ContainsAny(e.Pattern, "*?["):
				dir := filepath.Dir(p)
				if _, ok := globs[dir]; !ok {
					globDirs = append(globDirs, dir)
				}
				globs[dir] = append(globs[dir], filepath.Base(p))
			case e.Tree:
				treeTo(trees, WatchedTree{Path: p, Skip: e.Records})
			default:
				fileTo(files, p)
			}
		}
		for _, dir := range globDirs {
			treeTo(&w.CommandTrees, WatchedTree{Path: dir, Depth: 1, Match: matchAny(globs[dir])})
		}
		for _, t := range GitTargets(root, home) {
			if t.Dir {
				tree(WatchedTree{Path: t.Path, Depth: 1, Skip: t.Skip})
				continue
			}
			file(t.Path)
			if !t.Pointer && !slices.Contains(w.GitConfig, filepath.Clean(t.Path)) {
				w.GitConfig = append(w.GitConfig, filepath.Clean(t.Path))
			}
		}
	}
	return w
}

// matchAny reports whether a name matches one of patterns.
func matchAny(patterns []string) func(name string) bool {
	return func(name string) bool {
		for _, pat := range patterns {
			if ok, _ := filepath.Match(pat, name); ok {
				return true
			}
		}
		return false
	}
}
