package runfiles

import (
	"path/filepath"
	"slices"
)

// WatchedTree is a directory the settings guard compares whole.
type WatchedTree struct {
	Path string
	// Skip names entries directly below Path left alone.
	Skip []string
	// Depth bounds the levels compared; 0 means every level.
	Depth int
}

// Watched is what the settings guard compares around a call that runs
// unconfined without the user's own yes.
type Watched struct {
	Files []string
	Trees []WatchedTree
	// GitConfig lists git's config files, whose changes stand when they
	// touch no setting that runs something (see GitConfigChangeRuns).
	GitConfig []string
}

// Watch returns what the guard compares for a project whose directories
// are roots (its root and the directory ponder runs in): the rows marked
// Watch at each root, ponder's config directory whole but for its
// records, and what git's config names (its config, its hooks, the
// directory core.hooksPath names and the files include.path names).
func Watch(roots []string, home, configDir string) Watched {
	var w Watched
	seen := map[string]bool{}
	tree := func(t WatchedTree) {
		t.Path = filepath.Clean(t.Path)
		if !seen[t.Path] {
			seen[t.Path] = true
			w.Trees = append(w.Trees, t)
		}
	}
	file := func(p string) {
		p = filepath.Clean(p)
		if !seen[p] {
			seen[p] = true
			w.Files = append(w.Files, p)
		}
	}
	if configDir != "" {
		tree(WatchedTree{Path: configDir, Skip: ConfigRecords})
	}
	for _, root := range roots {
		for _, e := range Table() {
			if !e.Watch {
				continue
			}
			p := filepath.Join(root, filepath.FromSlash(e.Pattern))
			if e.Tree {
				tree(WatchedTree{Path: p, Skip: e.Records})
			} else {
				file(p)
			}
		}
		for _, t := range GitTargets(root, home) {
			if t.Dir {
				tree(WatchedTree{Path: t.Path, Depth: 1})
				continue
			}
			file(t.Path)
			if !slices.Contains(w.GitConfig, filepath.Clean(t.Path)) {
				w.GitConfig = append(w.GitConfig, filepath.Clean(t.Path))
			}
		}
	}
	return w
}
