package runguard

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ponder-agent/ponder/internal/runfiles"
)

// BenchmarkGuardedCall is what the guard adds to one tool call: a
// snapshot and a comparison of a project with settings and git's sample
// hooks.
func BenchmarkGuardedCall(b *testing.B) {
	dir := b.TempDir()
	hooks := filepath.Join(dir, ".git", "hooks")
	os.MkdirAll(hooks, 0o755)
	os.MkdirAll(filepath.Join(dir, ".ponder"), 0o755)
	os.WriteFile(filepath.Join(dir, ".ponder", "settings.json"), []byte(`{"permissions":{"allow":["Bash(go test:*)"]}}`), 0o644)
	for _, n := range []string{"pre-commit.sample", "pre-push.sample", "commit-msg.sample", "post-update.sample"} {
		os.WriteFile(filepath.Join(hooks, n), make([]byte, 2000), 0o755)
	}
	g := New(filepath.Join(dir, ".ponder", "settings.json"), filepath.Join(dir, ".ponder", "settings.local.json"),
		filepath.Join(dir, ".mcp.json"), filepath.Join(dir, ".envrc")).WithDirs(hooks)
	for b.Loop() {
		if c := g.Take().Restore(); len(c) != 0 {
			b.Fatal(c)
		}
	}
}

// BenchmarkGuardedCallTrees is the same for what the session guards
// now, built as the application builds it (runfiles.Watch, read again
// at every call): a config directory with settings, trust answers, 10
// commands, 10 agents and 20 skills of 3 files, a transcript left out,
// and a project with .ponder, .claude, .vscode, .husky/_ and a git
// repository whose config names core.hooksPath.
func BenchmarkGuardedCallTrees(b *testing.B) {
	home := b.TempDir()
	cfg := filepath.Join(home, ".ponder")
	dir := filepath.Join(home, "proj")
	put := func(p string, n int) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, make([]byte, n), 0o644)
	}
	put(filepath.Join(cfg, "settings.json"), 500)
	put(filepath.Join(cfg, "trust.json"), 200)
	for i := range 10 {
		put(filepath.Join(cfg, "commands", fmt.Sprintf("c%d.md", i)), 800)
		put(filepath.Join(cfg, "agents", fmt.Sprintf("a%d.md", i)), 1500)
	}
	for i := range 20 {
		for _, f := range []string{"SKILL.md", "ref.md", "run.sh"} {
			put(filepath.Join(cfg, "skills", fmt.Sprintf("s%d", i), f), 3000)
		}
	}
	for i := range 200 {
		put(filepath.Join(cfg, "projects", "p", fmt.Sprintf("s%d.jsonl", i)), 100)
	}
	put(filepath.Join(dir, ".ponder", "settings.json"), 300)
	put(filepath.Join(dir, ".claude", "settings.json"), 300)
	put(filepath.Join(dir, ".claude", "commands", "x.md"), 300)
	put(filepath.Join(dir, ".vscode", "settings.json"), 300)
	put(filepath.Join(dir, ".vscode", "tasks.json"), 300)
	put(filepath.Join(dir, ".husky", "pre-commit"), 100)
	put(filepath.Join(dir, ".husky", "_", "h"), 100)
	put(filepath.Join(dir, ".husky", "_", "pre-commit"), 100)
	put(filepath.Join(dir, ".git", "config"), 0)
	os.WriteFile(filepath.Join(dir, ".git", "config"), []byte("[core]\n\thooksPath = .husky/_\n[remote \"origin\"]\n\turl = x\n"), 0o644)
	for _, n := range []string{"pre-commit.sample", "pre-push.sample", "commit-msg.sample", "post-update.sample"} {
		put(filepath.Join(dir, ".git", "hooks", n), 2000)
	}
	g := New().WithSource(func() Set {
		w := runfiles.Watch([]string{dir}, home, cfg)
		set := Set{Paths: w.Files, CommandPaths: w.CommandFiles}
		for _, t := range w.Trees {
			set.Trees = append(set.Trees, Tree{Path: t.Path, Skip: t.Skip, Depth: t.Depth, Match: t.Match})
		}
		for _, t := range w.CommandTrees {
			set.CommandTrees = append(set.CommandTrees, Tree{Path: t.Path, Skip: t.Skip, Depth: t.Depth, Match: t.Match})
		}
		return set
	})
	// Files written just now are read in full until they age past the
	// racy window; the benchmark measures the steady state of files
	// written before the call.
	defer func(w int64) { racyWindow = w }(racyWindow)
	racyWindow = 0
	g.Take()
	for b.Loop() {
		if c := g.Take().Restore(); len(c) != 0 {
			b.Fatal(c)
		}
	}
}
