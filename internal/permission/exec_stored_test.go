package permission

import (
	"os"
	"path/filepath"
	"testing"
)

// git's stored copies of a file meet the Read deny rules: a command that
// can print them for any file is refused while such a rule may cover a
// file of the project, and one limited to files the rules allow runs.
func TestGitStoredCopiesMeetReadDenyRules(t *testing.T) {
	fx := newFixture(t)
	os.MkdirAll(filepath.Join(fx.root, "src", "a"), 0o755)
	os.WriteFile(filepath.Join(fx.root, "src", "main.go"), []byte("package main\n"), 0o644)
	os.WriteFile(filepath.Join(fx.root, ".env"), []byte("X=1\n"), 0o644)
	e, err := NewEngine(Rules{Deny: []string{"Read(.env)", "Read(src/*/key.txt)"}}, fx.root, fx.home)
	if err != nil {
		t.Fatal(err)
	}
	e.SetSandbox(SandboxPolicy{Available: true})
	refused := []string{
		"git show HEAD:.env", "git show :.env", "git cat-file -p HEAD:.env", "git log -p", "git log --patch --all",
		"git grep X HEAD", "git stash show -p", "git diff --cached", "git diff HEAD~1", "git diff-tree -p --root HEAD",
		"git show HEAD^{tree}:.env", "git log -p -- .en?", "git show HEAD:src/a/key.txt", "git diff -- src",
		"git -C . show HEAD:.env", "git archive HEAD", "git show", "git blame .env", "git format-patch -1 --stdout",
		"git -c alias.x=show x HEAD:.env", "git x HEAD:.env",
		// Spellings a hostile model would try.
		"git --git-dir=.git show HEAD:.env", "git show $(echo HEAD:.env)", `git show HEAD:'.e'nv`, "GIT_DIR=.git git show HEAD:.env",
		"git show HEAD:src/../.env", "git --no-pager log --all -p", "git log -pS token", "git show HEAD -- .", "env git show HEAD:.env",
		"xargs git show < refs.txt", "git show HEAD:./src/../.env",
	}
	allowed := []string{"git log --oneline", "git status", "git diff -- src/main.go", "git show HEAD:src/main.go", "git log -p -- src/main.go", "git ls-files"}
	for _, mode := range []Mode{ModeDefault, ModePlan, ModeBypass} {
		pc := Context{Mode: mode}
		for _, cmd := range refused {
			if d := e.Decide(pc, Access{Tool: "Bash", Kind: KindExec, Command: cmd, Dir: fx.root}); d.Behavior != Deny {
				t.Errorf("%s: %q = %s (%s), want deny", mode, cmd, d.Behavior, d.Reason)
			}
		}
		for _, cmd := range allowed {
			if d := e.Decide(pc, Access{Tool: "Bash", Kind: KindExec, Command: cmd, Dir: fx.root}); d.Behavior == Deny {
				t.Errorf("%s: %q denied: %s", mode, cmd, d.Reason)
			}
		}
	}
	// A rev:path names a file from the top of the repository, wherever
	// git runs; ./ makes it relative to where it runs.
	src := filepath.Join(fx.root, "src")
	for cmd, want := range map[string]Behavior{"git show HEAD:.env": Deny, "git show HEAD:src/main.go": Allow, "git show HEAD:./main.go": Allow, "git show HEAD:../.env": Deny} {
		if d := e.Decide(Context{Mode: ModePlan}, Access{Tool: "Bash", Kind: KindExec, Command: cmd, Dir: src}); (d.Behavior == Deny) != (want == Deny) {
			t.Errorf("in src: %q = %s (%s)", cmd, d.Behavior, d.Reason)
		}
	}
	// Without Read deny rules on the project, git prints what it likes.
	free, _ := NewEngine(Rules{Deny: []string{"Read(~/.ssh/**)"}}, fx.root, fx.home)
	free.SetSandbox(SandboxPolicy{Available: true})
	if d := free.Decide(Context{Mode: ModeDefault}, Access{Tool: "Bash", Kind: KindExec, Command: "git log -p", Dir: fx.root}); d.Behavior == Deny {
		t.Errorf("git log -p denied without rules on the project: %s", d.Reason)
	}
}
