package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// In bypass mode deny rules are the only guard. Programs that run their
// arguments as a command, known to ponder or not, do not get past them.
func TestDenyRulesHoldThroughUnknownWrappers(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		base := filepath.Dir(w.dir)
		wrapped := []string{
			"valgrind -q rm -rf V", "setarch x86_64 rm -rf V", "linux64 rm -rf V", "setpriv rm -rf V", "choom -n 0 -- rm -rf V",
			"perf stat -o /dev/null rm -rf V", "ssh-agent rm -rf V", `sg root -c "rm -rf V"`, "/lib64/ld-linux-x86-64.so.2 /bin/rm -rf V",
			"memusage rm -rf V", "ip vrf exec default rm -rf V", "bwrap --bind / / rm -rf V", "newgrp < <(echo rm -rf V)",
			"make -f /dev/null --eval='$(shell rm -rf V)'", "setpriv sh -c 'rm -rf V'",
		}
		victim := func(i int) string { return filepath.Join(base, fmt.Sprintf("victim%d", i)) }
		var cs []fakemodel.ToolCall
		for i, c := range wrapped {
			os.MkdirAll(victim(i), 0o755)
			os.WriteFile(filepath.Join(victim(i), "f"), []byte("x"), 0o644)
			cs = append(cs, bashCall(strings.ReplaceAll(c, "V", victim(i))))
		}
		w.write("a.txt", "one\n")
		w.git("init", "-q")
		w.git("add", ".")
		w.git("commit", "-qm", "start")
		remote := filepath.Join(base, "remote.git")
		if out, err := exec.Command("git", "init", "-q", "--bare", remote).CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
		w.git("remote", "add", "origin", remote)
		gitCore, _ := exec.Command("git", "--exec-path").Output()
		pushes := []string{
			filepath.Join(strings.TrimSpace(string(gitCore)), "git-push") + " origin HEAD:refs/heads/a",
			"git send-pack " + remote + " HEAD:refs/heads/b",
		}
		for _, c := range pushes {
			cs = append(cs, bashCall(c))
		}
		cs = append(cs, bashCall("touch control-made"))
		w.srv.Add(callsThenDone("clean up", cs)...)
		w.mustRun(0, "", "-p", "clean up", "--dangerously-skip-permissions", "--permission-mode", "bypassPermissions",
			"--disallowedTools", "Bash(rm:*),Bash(git push:*)")
		res := w.lastResults(len(cs))
		for i, c := range append(wrapped, pushes...) {
			if !failed(res[i]) {
				t.Errorf("%q was not refused: %q", c, res[i].Content)
			}
		}
		for i, c := range wrapped {
			if _, err := os.Stat(filepath.Join(victim(i), "f")); err != nil {
				t.Errorf("%q deleted its victim", c)
			}
		}
		if refs, _ := exec.Command("git", "--git-dir", remote, "for-each-ref").Output(); len(refs) > 0 {
			t.Errorf("a push reached the remote: %s", refs)
		}
		if failed(res[len(res)-1]) || !w.exists("control-made") {
			t.Errorf("bypass mode should run other commands: %q", res[len(res)-1].Content)
		}

		// The wrappers are real: without the rule they delete.
		w.srv.Add(calls("control", bashCall(strings.ReplaceAll(wrapped[1], "V", victim(1))), bashCall(strings.ReplaceAll(wrapped[8], "V", victim(8))))...)
		w.mustRun(0, "", "-p", "control", "--dangerously-skip-permissions", "--permission-mode", "bypassPermissions")
		for _, i := range []int{1, 8} {
			if _, err := os.Stat(filepath.Join(victim(i), "f")); err == nil {
				t.Errorf("control: %q did not delete, so the test proves nothing", wrapped[i])
			}
		}
	})
}
