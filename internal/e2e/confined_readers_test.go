package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// Bash evaluates variable text as arithmetic (where a subscript runs
// command substitutions) or expands it as a prompt. An allow rule for the
// visible command must not carry the hidden ones.
func TestAllowRulesDoNotCoverEvaluatedText(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		base := filepath.Dir(w.dir)
		marker := func(n string) string { return filepath.Join(base, "evaluated-"+n) }
		attacks := []string{
			`x="a[\$(touch ` + marker("1") + `)]"; echo $((x))`,
			`x='$(touch ` + marker("2") + `)'; echo ${x@P}`,
			`ls; let "a[\$(touch ` + marker("3") + `)]=1"`,
			`git status; x="a[\$(touch ` + marker("4") + `)]"; [[ $x -eq 1 ]]`,
			`read -r x < payload.txt; ls -w $((x))`,
			`x="a[\$(touch ` + marker("6") + `)]"; echo ${s:x}`,
			`x="a[\$(touch ` + marker("7") + `)]"; echo $[x]`,
		}
		w.write("payload.txt", "a[$(touch "+marker("5")+")]\n")
		w.write("README", "x\n")
		w.git("init", "-q")
		calls := []fakemodel.ToolCall{}
		for _, c := range attacks {
			calls = append(calls, bashCall(c))
		}
		calls = append(calls, bashCall("n=5; echo $((n + 1))"))
		w.srv.Add(callsThenDone("count things", calls)...)
		w.mustRun(0, "", "-p", "count things", "--allowedTools", "Bash(echo:*),Bash(ls:*),Bash(git status)")
		res := w.lastResults(len(calls))
		for i, c := range attacks {
			if !failed(res[i]) {
				t.Errorf("%q ran: %q", c, res[i].Content)
			}
		}
		for _, n := range []string{"1", "2", "3", "4", "5", "6", "7"} {
			if _, err := os.Stat(marker(n)); err == nil {
				t.Errorf("the command hidden in attack %s ran", n)
			}
		}
		if last := res[len(attacks)]; failed(last) || !strings.Contains(last.Content, "6") {
			t.Errorf("arithmetic on the line's own numbers: %q", last.Content)
		}
		// The attack is real: bash runs what the value hides.
		if out, err := runIn(w.dir, attacks[0]); err != nil {
			t.Fatalf("control: %v %s", err, out)
		}
		if _, err := os.Stat(marker("1")); err != nil {
			t.Error("control: bash did not run the hidden command, so the test proves nothing")
		}
	})
}

// A repository's configuration makes git run programs (an external diff,
// a file system monitor, a text converter). A rule that allows git diff
// or git status is meant for a reader, so the line still runs in the
// sandbox, where the program cannot change anything.
func TestAllowedReadersStillRunConfined(t *testing.T) {
	haveSandbox(t, "landlock")
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		base := filepath.Dir(w.dir)
		evil := filepath.Join(base, "evil.sh")
		os.WriteFile(evil, []byte("#!/bin/sh\ntouch "+filepath.Join(base, "config-ran")+"\n"), 0o755)
		w.write("a.txt", "one\n")
		w.write(".gitattributes", "a.txt diff=evil\n")
		w.git("init", "-q")
		w.git("add", ".")
		w.git("commit", "-qm", "start")
		w.write("a.txt", "two\n")
		for _, kv := range [][2]string{{"diff.external", evil}, {"core.fsmonitor", evil}, {"diff.evil.textconv", evil}} {
			w.git("config", kv[0], kv[1])
		}
		lines := []string{"git diff", "git status", "git diff --stat", "git log -p -1"}
		var cs []fakemodel.ToolCall
		for _, c := range lines {
			cs = append(cs, bashCall(c))
		}
		w.srv.Add(callsThenDone("look at changes", cs)...)
		w.mustRun(0, "", "-p", "look at changes", "--allowedTools", "Bash(git diff:*),Bash(git status:*),Bash(git log:*)")
		w.lastResults(len(cs))
		if _, err := os.Stat(filepath.Join(base, "config-ran")); err == nil {
			t.Fatal("a program named in .git/config changed the system under an allow rule")
		}
		// Bypass mode confines readers too.
		w.srv.Add(calls("bypass look", bashCall("git status"), bashCall("git diff"))...)
		w.mustRun(0, "", "-p", "bypass look", "--dangerously-skip-permissions", "--permission-mode", "bypassPermissions")
		if _, err := os.Stat(filepath.Join(base, "config-ran")); err == nil {
			t.Fatal("a program named in .git/config changed the system in bypass mode under a reader")
		}
		// The attack is real: without a sandbox the same rule runs it.
		w.extraEnv = append(w.extraEnv, "PONDER_SANDBOX=none")
		w.srv.Add(calls("unconfined look", bashCall("git status"))...)
		w.mustRun(0, "", "-p", "unconfined look", "--allowedTools", "Bash(git status:*)")
		if _, err := os.Stat(filepath.Join(base, "config-ran")); err != nil {
			t.Error("control: git status did not run the configured program without a sandbox, so the test proves nothing")
		}
	})
}

// Accept-edits mode asks before .git/ changes, but git takes any
// directory that looks like a git directory for a repository. Every
// command gets safe.bareRepository=explicit, and git status is a reader
// that runs confined anyway.
func TestAcceptEditsCannotPlantARepositoryUnderAnotherName(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		base := filepath.Dir(w.dir)
		marker := filepath.Join(base, "monitor-ran")
		config := "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = " + filepath.Join(w.dir, "sub") +
			"\n\tfsmonitor = touch " + marker + "; false\n"
		writes := []fakemodel.ToolCall{
			writeCall("sub/HEAD", "ref: refs/heads/master\n"), writeCall("sub/config", config),
			writeCall("sub/objects/info/x", ""), writeCall("sub/refs/heads/x", ""), writeCall("sub/a.txt", "hi\n"),
		}
		w.srv.Add(calls("plant", writes...)...)
		w.srv.Add(calls("look", bashCall("cd sub && git status"), bashCall("cd sub && git diff"))...)
		w.mustRun(0, "", "-p", "plant", "--permission-mode", "acceptEdits")
		if w.read("sub/config") != config {
			t.Fatal("the edits did not land, so the test proves nothing")
		}
		for _, env := range [][]string{nil, {"PONDER_SANDBOX=none"}} {
			w.extraEnv = env
			w.mustRun(0, "", "-p", "look", "--permission-mode", "acceptEdits", "--allowedTools", "Bash(git status:*),Bash(git diff:*)")
			if _, err := os.Stat(marker); err == nil {
				t.Fatalf("git ran the planted monitor (environment %v)", env)
			}
			w.srv.Add(calls("look", bashCall("cd sub && git status"), bashCall("cd sub && git diff"))...)
		}
		// The attack is real: git without the guard runs it.
		cmd := exec.Command("git", "status")
		cmd.Dir = filepath.Join(w.dir, "sub")
		cmd.Env = append(os.Environ(), "GIT_CONFIG_COUNT=0")
		cmd.Run()
		if _, err := os.Stat(marker); err != nil {
			t.Error("control: git did not use the planted directory, so the test proves nothing")
		}
	})
}
