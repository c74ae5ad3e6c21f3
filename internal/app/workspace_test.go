package app

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The workspace policy keeps git's config and hooks read-only for the
// project, its submodules and its other worktrees, leaves the rest of
// .git writable, and puts caches in ponder's own directory.
func TestWorkspaceFor(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	base := t.TempDir()
	root := filepath.Join(base, "proj")
	other := filepath.Join(base, "other")
	for _, d := range []string{".git/hooks", ".git/modules/lib/hooks", ".git/worktrees/other", "other"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(root, ".git/modules/lib/HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.WriteFile(filepath.Join(root, ".git/worktrees/other/gitdir"), []byte(filepath.Join(other, ".git")+"\n"), 0o644)
	os.WriteFile(filepath.Join(other, ".git"), []byte("gitdir: "+filepath.Join(root, ".git/worktrees/other")+"\n"), 0o644)
	cfgDir := filepath.Join(base, "config")
	w := workspaceFor(root, []string{"~/extra"}, cfgDir, []string{filepath.Join(root, "secret.txt")})
	for _, want := range []string{root, other} {
		if !slices.Contains(w.Writable, want) {
			t.Errorf("writable %q lacks %s", w.Writable, want)
		}
	}
	for _, want := range []string{
		filepath.Join(root, ".git/config"), filepath.Join(root, ".git/hooks"),
		filepath.Join(root, ".git/modules/lib/config"), filepath.Join(root, ".git/modules/lib/hooks"),
		filepath.Join(other, ".git"), filepath.Join(other, ".vscode"),
		filepath.Join(root, ".husky"), filepath.Join(root, ".claude"), cfgDir, filepath.Join(root, "secret.txt"),
	} {
		if !slices.Contains(w.ReadOnly, want) {
			t.Errorf("read-only lacks %s", want)
		}
	}
	if slices.Contains(w.ReadOnly, filepath.Join(root, ".git")) {
		t.Error("the whole .git directory is read-only: git could not commit")
	}
	home, _ := os.UserHomeDir()
	if !slices.Contains(w.Writable, filepath.Join(home, "extra")) {
		t.Errorf("sandbox.writable not expanded: %q", w.Writable)
	}
	found := false
	for _, kv := range w.Env {
		if len(kv) > 8 && kv[:8] == "GOCACHE=" {
			found = true
			if dir := kv[8:]; !filepath.IsAbs(dir) || filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(dir)))) != "ponder" {
				t.Errorf("GOCACHE %s is not ponder's own", dir)
			}
		}
	}
	if !found {
		t.Error("no GOCACHE of ponder's own")
	}
}

// A session started in the home directory makes the home the project:
// its keys, configuration and programs stay read-only.
func TestWorkspaceOfTheHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	w := workspaceFor(home, nil, filepath.Join(home, ".ponder"), nil)
	for _, d := range []string{".ssh", ".config", ".local", ".bashrc", ".ponder"} {
		if !slices.Contains(w.ReadOnly, filepath.Join(home, d)) {
			t.Errorf("read-only lacks ~/%s", d)
		}
	}
	if ro := workspaceFor(filepath.Join(home, "proj"), nil, "", nil).ReadOnly; slices.Contains(ro, filepath.Join(home, ".ssh")) {
		t.Error("a project below the home lists the home's directories")
	}
}
