package permission

import "testing"

// Deny rules hold for programs that run their arguments as a command,
// whether the classifier knows them or not: a program it does not know
// that names the forbidden program among its words, or one named by a
// path, may be running it, so the line asks; even in bypass mode.
func TestDenyRulesSeePastUnknownWrappers(t *testing.T) {
	fx := newFixture(t)
	e, err := NewEngine(Rules{Deny: []string{"Bash(rm:*)", "Bash(git push:*)"}}, fx.root, fx.home)
	if err != nil {
		t.Fatal(err)
	}
	e.SetSandbox(SandboxPolicy{Available: true})
	refused := []string{
		"valgrind -q rm -rf V", "setarch x86_64 rm -rf V", "linux32 rm -rf V", "linux64 rm -rf V", "x86_64 rm V", "i386 rm V",
		"setpriv rm -rf V", "setpriv --reuid=0 sh -c 'rm -rf V'", "choom -n 0 -- rm -rf V", "perf stat -o /dev/null rm -rf V",
		"perf record -- /bin/rm V", "ssh-agent rm -rf V", `sg root -c "rm -rf V"`, `sg - root -c "rm -rf V"`, "sg root 'rm V'",
		"newgrp < <(echo rm -rf V)", "sg root < script", "/lib64/ld-linux-x86-64.so.2 /bin/rm -rf V", "/lib/ld-musl-x86_64.so.1 rm V",
		"memusage rm -rf V", "sotruss rm V", "ip vrf exec default rm -rf V", "ip netns exec n1 rm -rf V",
		"bwrap --bind / / rm -rf V", "unshare -r rm V", "nsenter -t 1 -m rm V", "firejail rm V", "chroot / rm V",
		"make -f /dev/null --eval='$(shell rm -rf V)'", "make -E '$(shell rm V)'", "./run.sh", "tools/wrap rm V",
		"valgrind env rm V", "strangeprog bash -c 'rm V'", "valgrind $(echo rm) V", "setarch x86_64 $cmd V",
		"/usr/lib/git-core/git-push origin HEAD:refs/heads/a", "git-push origin main", "git send-pack ../r.git HEAD:refs/heads/a",
		"git receive-pack ../r.git", "git http-push https://x/r.git main", "git -C . send-pack ../r.git HEAD",
		"/usr/lib/git-core/git-send-pack ../r.git HEAD",
		`sqlite3 :memory: ".shell rm V"`, `sqlite3 -cmd ".system rm V" :memory: .q`, `echo ".shell rm V" | sqlite3`,
		"sqlite3 -init sq :memory: .q", "run-parts scripts",
		"make SHELL=./evil", "make CC=./evil all", "make -C ../other test", "make -f other.mk", "npm test -C ../other",
		"go test -C ../other ./...", "go vet -vettool=./evil ./...",
	}
	for _, mode := range []Mode{ModeDefault, ModeBypass} {
		for _, cmd := range refused {
			d := e.Decide(Context{Mode: mode}, Access{Tool: "Bash", Kind: KindExec, Command: cmd})
			if d.Behavior == Allow {
				t.Errorf("%s: %q allowed (%s)", mode, cmd, d.Reason)
			}
		}
	}
	// Programs that do not name a forbidden one still run in bypass mode,
	// and rules that name nothing in particular change nothing.
	for _, cmd := range []string{"valgrind -q ls", "setarch x86_64 make", "ip addr", "perf stat ls", "make test", "git push --dry-run --help >/dev/null; git log"} {
		d := e.Decide(Context{Mode: ModeBypass}, Access{Tool: "Bash", Kind: KindExec, Command: cmd})
		if cmd == "git push --dry-run --help >/dev/null; git log" {
			if d.Behavior != Deny {
				t.Errorf("%q = %s", cmd, d.Behavior)
			}
			continue
		}
		if d.Behavior != Allow {
			t.Errorf("bypass: %q = %s (%s)", cmd, d.Behavior, d.Reason)
		}
	}
	plain, _ := NewEngine(Rules{}, fx.root, fx.home)
	if d := plain.Decide(Context{Mode: ModeBypass}, Access{Tool: "Bash", Kind: KindExec, Command: "./run.sh"}); d.Behavior != Allow {
		t.Errorf("without rules, ./run.sh in bypass = %s", d.Behavior)
	}
}
