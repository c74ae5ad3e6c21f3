package runfiles

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Watch covers every row of the table at the root, whether or not the
// file is there, the name patterns as matching entries of the root, and
// git's other config files; rows ordinary commands write (.venv) stay
// out.
func TestWatchEveryRow(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", "")
	git := filepath.Join(root, ".git")
	for _, d := range []string{"modules/sm/hooks", "worktrees/w"} {
		os.MkdirAll(filepath.Join(git, d), 0o755)
	}
	os.WriteFile(filepath.Join(git, "config"), nil, 0o644)
	os.WriteFile(filepath.Join(git, "modules", "sm", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.WriteFile(filepath.Join(git, "worktrees", "w", "HEAD"), []byte("ref: refs/heads/w\n"), 0o644)

	w := Watch([]string{root}, home, "")
	in := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	for _, p := range []string{".npmrc", ".pre-commit-config.yaml", ".gitattributes", ".cargo/config.toml", "AGENTS.md", "CLAUDE.md", "GEMINI.md", "CLAUDE.local.md", "AGENTS.override.md", "pytest.ini", "setup.cfg", "gradle.properties"} {
		if !slices.Contains(w.CommandFiles, in(p)) {
			t.Errorf("%s is not watched around commands", p)
		}
	}
	for _, p := range []string{".envrc", ".mcp.json", ".git/config", ".git/commondir", ".git/config.worktree",
		".git/modules/sm/config", ".git/modules/sm/commondir", ".git/worktrees/w/config.worktree", ".git/worktrees/w/commondir", ".git/worktrees/w/gitdir"} {
		if !slices.Contains(w.Files, in(p)) {
			t.Errorf("%s is not watched around every call", p)
		}
	}
	for _, p := range []string{".git/commondir", ".git/modules/sm/commondir", ".git/worktrees/w/gitdir"} {
		if slices.Contains(w.GitConfig, in(p)) {
			t.Errorf("%s is taken for a config, whose changes that run nothing stand", p)
		}
	}
	trees := map[string]WatchedTree{}
	for _, tr := range append(w.Trees, w.CommandTrees...) {
		trees[tr.Path] = tr
	}
	for _, p := range []string{".git/hooks", ".git/info", ".git/modules/sm/hooks", ".vscode", ".husky", ".github/workflows"} {
		if _, ok := trees[in(p)]; !ok {
			t.Errorf("the tree %s is not watched", p)
		}
	}
	if _, ok := trees[in(".venv")]; ok {
		t.Error(".venv, which installs write, is watched")
	}
	if info := trees[in(".git/info")]; !slices.Contains(info.Skip, "exclude") {
		t.Error(".git/info/exclude, which runs nothing, is compared")
	}
	rootTree, ok := trees[root]
	if !ok || rootTree.Match == nil || rootTree.Depth != 1 {
		t.Fatalf("the root's name patterns are not watched: %+v", rootTree)
	}
	for _, name := range []string{"lefthook.yml", "compose.override.yaml", "docker-compose.dev.yaml", "Procfile.dev", "extra.mk", "Taskfile.yml"} {
		if !rootTree.Match(name) {
			t.Errorf("%s does not match the root's patterns", name)
		}
	}
	for _, name := range []string{"main.go", "README.md", "package.json", "pyproject.toml", "build"} {
		if rootTree.Match(name) {
			t.Errorf("%s matches the root's patterns", name)
		}
	}
}
