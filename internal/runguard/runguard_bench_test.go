package runguard

import (
	"os"
	"path/filepath"
	"testing"
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
