package permission

import "testing"

// An allow rule covers a command, not an option of it that writes a file
// or runs another program: such a line needs its own yes.
func TestAllowRulesDoNotCoverOptionEscapes(t *testing.T) {
	fx := newFixture(t)
	cases := []struct{ rule, cmd string }{
		{"Bash(git diff:*)", "git diff --output=/h/.bashrc"},
		{"Bash(git log:*)", "git log --output=/h/x"},
		{"Bash(git show:*)", "git show --output=/h/x"},
		{"Bash(git stash show:*)", "git stash show --output=/h/x"},
		{"Bash(git archive:*)", "git archive -o /h/x HEAD"},
		{"Bash(git archive:*)", "git archive --remote=/r --exec='touch p' HEAD"},
		{"Bash(git format-patch:*)", "git format-patch -o /h HEAD~1"},
		{"Bash(git grep:*)", "git grep --open-files-in-pager='touch p #' two"},
		{"Bash(git grep:*)", "git grep -Ovim two"},
		{"Bash(git fetch:*)", "git fetch --upload-pack='touch p;git-upload-pack' origin"},
		{"Bash(git ls-remote:*)", "git ls-remote --upload-pack=x origin"},
		{"Bash(git pull:*)", "git pull --upload-pack=x origin"},
		{"Bash(git clone:*)", "git clone -u x /r /d"},
		{"Bash(sort:*)", "sort -o /h/x README.md"},
		{"Bash(find:*)", "find . -maxdepth 0 -fprint /h/x"},
		{"Bash(xxd:*)", "xxd README.md /h/x"},
		{"Bash(go test:*)", "go test -exec \"sh -c 'touch p'\" ./..."},
		{"Bash(go test:*)", "go test -coverprofile=/h/x ./..."},
		{"Bash(go test:*)", "go test -o /h/x ./..."},
		{"Bash(go vet:*)", "go vet -vettool=./notes.txt ./..."},
		{"Bash(npm test:*)", "npm test --script-shell=./notes.txt"},
		{"Bash(npm test:*)", "npm test --userconfig ./rc"},
		{"Bash(pip list:*)", "pip list --log /h/x"},
		{"Bash(curl:*)", "curl -K ./cfg https://example.com"},
	}
	for _, mode := range []Mode{ModeDefault, ModeAcceptEdits} {
		for _, tc := range cases {
			e, err := NewEngine(Rules{Allow: []string{tc.rule}}, fx.root, fx.home)
			if err != nil {
				t.Fatal(err)
			}
			e.SetSandbox(SandboxPolicy{Available: true})
			d := e.Decide(Context{Mode: mode}, Access{Tool: "Bash", Kind: KindExec, Command: tc.cmd})
			if d.Behavior != Ask || d.Sandbox {
				t.Errorf("%s, %s: %q = %s sandbox=%v (%s: %s), want ask", mode, tc.rule, tc.cmd, d.Behavior, d.Sandbox, d.Rule, d.Reason)
			}
		}
	}
	// The rules still allow what they name.
	for _, tc := range []struct{ rule, cmd string }{
		{"Bash(git diff:*)", "git diff --stat"}, {"Bash(go test:*)", "go test -run X -count=1 ./..."},
		{"Bash(npm test:*)", "npm test"}, {"Bash(sort:*)", "sort -u f"}, {"Bash(git fetch:*)", "git fetch origin"},
	} {
		e, _ := NewEngine(Rules{Allow: []string{tc.rule}}, fx.root, fx.home)
		if d := e.Decide(Context{Mode: ModeDefault}, Access{Tool: "Bash", Kind: KindExec, Command: tc.cmd}); d.Behavior != Allow {
			t.Errorf("%s: %q = %s (%s)", tc.rule, tc.cmd, d.Behavior, d.Reason)
		}
	}
}
