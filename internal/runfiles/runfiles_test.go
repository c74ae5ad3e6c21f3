package runfiles

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestMatch(t *testing.T) {
	for rel, want := range map[string]string{
		".git/config":             ".git",
		"sub/.GIT/hooks/x":        ".git",
		"Makefile":                "Makefile",
		"src/makefile":            "Makefile",
		"mise.prod.toml":          "mise.*.toml",
		"mise/config.toml":        "mise/config.toml",
		".husky/_/pre-commit":     ".husky",
		"a/b/.lefthook-local.yml": ".lefthook-local.*",
		"docs/makefile.md":        "",
		"mise/other.toml":         "",
		"gradle/build.gradle":     "",
		"x/bin/activate.fish":     "bin/activate*",
		"bin/activate/x":          "",
		"gradle/wrapper/x.jar":    "gradle/wrapper",
	} {
		e, ok := Match(rel)
		if e.Pattern != want || ok != (want != "") {
			t.Errorf("Match(%q) = %q, %v; want %q", rel, e.Pattern, ok, want)
		}
	}
}

// Every row has a category of the list and a reason, and its sample
// matches it.
func TestTableIsWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range Table() {
		if !slices.Contains(Categories(), e.Category) || e.Why == "" {
			t.Errorf("%s: category %q, why %q", e.Pattern, e.Category, e.Why)
		}
		if seen[e.Pattern] {
			t.Errorf("%s twice", e.Pattern)
		}
		seen[e.Pattern] = true
		if got, ok := Match(e.Sample()); !ok || got.Pattern != e.Pattern && !got.Tree {
			t.Errorf("%s: its sample %s matches %q", e.Pattern, e.Sample(), got.Pattern)
		}
	}
	if len(Table()) != len(table) {
		t.Errorf("Table has %d rows of %d: a row has a category outside Categories", len(Table()), len(table))
	}
}

func TestHidden(t *testing.T) {
	for rel, want := range map[string]string{
		".gitignore":         "",
		"src/.gitignore":     "",
		".editorconfig":      "",
		"src/main.go":        "",
		".gitattributes":     ".gitattributes",
		".gitignore/x":       ".gitignore",
		".github/CODEOWNERS": ".github",
		"a/.tool/b/c":        ".tool",
		".prettierrc":        ".prettierrc",
		"../x":               "",
	} {
		el, ok := Hidden(rel)
		if el != want || ok != (want != "") {
			t.Errorf("Hidden(%q) = %q, %v; want %q", rel, el, ok, want)
		}
	}
}

func TestGitTargets(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", "")
	os.MkdirAll(filepath.Join(root, ".git"), 0o755)
	os.WriteFile(filepath.Join(root, ".git", "config"), []byte("[core]\n\thooksPath = .husky/_ ; husky\n[include]\n\tpath = ../shared.inc\n[includeIf \"gitdir:~/\"]\n  path = \"~/more.inc\"\n"), 0o644)
	os.WriteFile(filepath.Join(root, "shared.inc"), []byte("[core]\nhooksPath=/abs/hooks\n"), 0o644)
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[core]\n  hookspath = ~/githooks\n"), 0o644)
	var got []string
	for _, tg := range GitTargets(root, home) {
		got = append(got, tg.Path)
	}
	for _, want := range []string{
		filepath.Join(root, ".git", "config"), filepath.Join(root, ".git", "hooks"),
		filepath.Join(root, ".husky", "_"), filepath.Join(root, "shared.inc"), "/abs/hooks",
		filepath.Join(home, "more.inc"), filepath.Join(home, "githooks"),
		filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git", "config"),
	} {
		if !slices.Contains(got, want) {
			t.Errorf("%s missing from %v", want, got)
		}
	}

	// A linked worktree's .git file leads to the common directory.
	wt := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".git", "worktrees", "w"), 0o755)
	os.WriteFile(filepath.Join(root, ".git", "worktrees", "w", "commondir"), []byte("../..\n"), 0o644)
	os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+filepath.Join(root, ".git", "worktrees", "w")+"\n"), 0o644)
	if tg := GitTargets(wt, ""); len(tg) < 2 || tg[0].Path != filepath.Join(root, ".git", "config") {
		t.Errorf("worktree targets %v", tg)
	}
}

func TestPaths(t *testing.T) {
	root, home, cfg := t.TempDir(), t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(root, "mise.prod.toml"), nil, 0o644)
	os.MkdirAll(filepath.Join(root, ".vscode"), 0o755)
	byPath := map[string]Path{}
	for _, p := range Paths(root, home, cfg) {
		byPath[p.Path] = p
	}
	if p := byPath[filepath.Join(root, ".vscode")]; !p.Exists || !p.Dir {
		t.Errorf(".vscode: %+v", p)
	}
	if p, ok := byPath[filepath.Join(root, "mise.prod.toml")]; !ok || !p.Exists {
		t.Errorf("a wildcard row was not resolved: %+v", p)
	}
	if p, ok := byPath[filepath.Join(root, "Makefile")]; !ok || p.Exists {
		t.Errorf("an absent row: %+v", p)
	}
	if _, ok := byPath[filepath.Join(home, ".bashrc")]; !ok {
		t.Error("home's rows missing")
	}
	os.MkdirAll(filepath.Join(root, "node_modules"), 0o755)
	os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755)
	byPath = map[string]Path{}
	for _, p := range Paths(root, home, cfg) {
		byPath[p.Path] = p
	}
	for _, written := range []string{".git", "node_modules", ".venv"} {
		if _, ok := byPath[filepath.Join(root, written)]; ok {
			t.Errorf("%s, which builds write, is held read-only", written)
		}
	}
	for _, held := range []string{".git/config", ".git/hooks"} {
		if _, ok := byPath[filepath.Join(root, held)]; !ok {
			t.Errorf("%s is not held", held)
		}
	}
	if p := byPath[cfg]; !p.Exists || p.Why == "" {
		t.Errorf("config dir: %+v", p)
	}
}

func TestGitConfigChangeRuns(t *testing.T) {
	base := "[core]\n\trepositoryformatversion = 0\n\tbare = false\n"
	for after, runs := range map[string]bool{
		base: false,
		base + "[remote \"origin\"]\n\turl = git@example.com:x.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n": false,
		base + "[user]\n\temail = a@example.com\n[branch \"feature/x.y\"]\n\tremote = origin\n":                                                                                       false,
		base + "\thooksPath = .husky/_\n":                               true,
		"[core]\n\thookspath = /tmp/h\n":                                true,
		base + "[include]\n\tpath = ../x\n":                             true,
		base + "[alias]\n\tst = !sh evil\n":                             true,
		base + "[remote \"origin\"]\n\tuploadpack = evil\n":             true,
		base + "[remote \"origin\"] url = x\n[core] fsmonitor = evil\n": true,
		base + "[filter \"lfs\"]\n\tclean = git-lfs clean\n":            true,
		"": false,
	} {
		if got := GitConfigChangeRuns([]byte(base), []byte(after)); got != runs {
			t.Errorf("%q: %v, want %v", after, got, runs)
		}
	}
	if !GitConfigChangeRuns([]byte(base+"[core]\n\tpager = less\n"), []byte(base)) {
		t.Error("removing a setting that runs a program went unnoticed")
	}
}
