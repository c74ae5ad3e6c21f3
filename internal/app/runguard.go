package app

import (
	"os"

	"github.com/ponder-agent/ponder/internal/runfiles"
	"github.com/ponder-agent/ponder/internal/runguard"
)

// runGuard watches what makes something run later without anyone
// choosing to run it, as runfiles.Watch lists it: ponder's config
// directory but for its records, the project's .ponder, .claude, .husky,
// .vscode and .devcontainer whole, .mcp.json and .envrc, git's config
// and the hooks and config files it names and, around commands, every
// other row of the table at the project's roots. What git's config names is
// read again at the start of every call. A change of git's config that
// touches only settings that run nothing (a remote, an upstream, the
// user's name) stands: git push -u and git remote add write those.
func runGuard(dir, root, configDir string) *runguard.Guard {
	home, _ := os.UserHomeDir()
	roots := []string{dir}
	if root != "" && root != dir {
		roots = append(roots, root)
	}
	return runguard.New().WithSource(func() runguard.Set {
		w := runfiles.Watch(roots, home, configDir)
		set := runguard.Set{Paths: w.Files, Inert: map[string]func(before, after []byte) bool{}}
		set.CommandPaths = w.CommandFiles
		for _, t := range w.Trees {
			set.Trees = append(set.Trees, guardTree(t))
		}
		for _, t := range w.CommandTrees {
			set.CommandTrees = append(set.CommandTrees, guardTree(t))
		}
		for _, p := range w.GitConfig {
			set.Inert[p] = func(before, after []byte) bool { return !runfiles.GitConfigChangeRuns(before, after) }
		}
		return set
	})
}

func guardTree(t runfiles.WatchedTree) runguard.Tree {
	return runguard.Tree{Path: t.Path, Skip: t.Skip, Depth: t.Depth, Match: t.Match}
}
