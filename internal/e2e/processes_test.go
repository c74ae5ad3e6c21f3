package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// waitForMarker polls /proc, a bounded time, until a process with marker
// runs (want) or none does.
func waitForMarker(t *testing.T, marker string, want bool) []string {
	t.Helper()
	for range 500 {
		left := markerProcesses(marker)
		if (len(left) > 0) == want {
			return left
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("after 5s, processes with %s: %v (want running=%v)", marker, markerProcesses(marker), want)
	return nil
}

// Whatever a call starts is gone once the call returns, while ponder is
// still running: in plan mode (confined) and in bypass mode (unconfined).
func TestNothingOutlivesACall(t *testing.T) {
	haveSandbox(t, "landlock")
	for i, mode := range []string{"plan", "bypassPermissions"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			api := apis[i%2]
			m := fmt.Sprintf("8%03d%03d", os.Getpid()%1000, i)
			delayed := "delayed-" + m
			calls := []fakemodel.ToolCall{
				bashCall("sleep 99." + m + " &"),
				bashCall("setsid sleep 98." + m),
				bashCall("nohup sleep 97." + m + " >/dev/null 2>&1 &"),
				bashCall("( (sleep 96." + m + " &) & )"),
				bashCall("(sleep 1." + m + "; touch " + delayed + ") &"),
				bashCall("setsid sh -c 'sleep 1." + m + "; touch " + delayed + "' &"),
			}
			w := newWorld(t, api,
				fakemodel.Reply{Name: "spawn", When: fakemodel.Match{LastUser: "spawn " + m}, ToolCalls: calls},
				fakemodel.Reply{Name: "spawned", When: fakemodel.Match{Func: func(r *fakemodel.Request) bool {
					return len(r.LastUser().ToolResults) == len(calls)
				}}, Text: "spawned " + m},
			)
			args := []string{"--permission-mode", mode}
			if mode == "plan" {
				// Every command runs, confined: what is tested here is
				// what happens after, not the command check.
				w.extraEnv = []string{"PONDER_TEST_CLASSIFIER=off"}
			}
			if mode == "bypassPermissions" {
				args = append(args, "--dangerously-skip-permissions")
			}
			s := w.start(args...)
			s.say("spawn " + m)
			res := s.result()
			if res["result"] != "spawned "+m {
				t.Fatalf("result %v", res)
			}
			// ponder is still running: the calls returned, and everything
			// they started is gone.
			if left := markerProcesses(m); len(left) > 0 {
				t.Fatalf("left running after the calls returned:\n%s", strings.Join(left, "\n"))
			}
			for _, r := range toolResults(w.srv.Requests()[len(w.srv.Requests())-1]) {
				if failed(r) {
					t.Errorf("a call failed: %q", r.Content)
				}
			}
			if code := s.close(); code != 0 {
				t.Fatalf("exit %d", code)
			}
			if _, err := os.Stat(filepath.Join(w.dir, delayed)); err == nil {
				t.Fatal("a delayed write happened")
			}
		})
	}
}

// A command started with run_in_background in default mode is tracked:
// its output is read with BashOutput, it is listed, KillShell stops it,
// and the shells still running are gone when ponder exits.
func TestBackgroundShellLifecycle(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		m := fmt.Sprintf("9%03d%d", os.Getpid()%1000, len(api))
		bg := func(cmd string) fakemodel.ToolCall {
			return fakemodel.ToolCall{Name: "Bash", Input: map[string]any{"command": cmd, "run_in_background": true}}
		}
		w := newWorld(t, api,
			fakemodel.Reply{Name: "start", When: fakemodel.Match{LastUser: "start " + m}, ToolCalls: []fakemodel.ToolCall{bg("echo ready-" + m + "; sleep 95." + m)}},
			fakemodel.Reply{Name: "started", When: fakemodel.Match{ToolResult: "bash_1"}, Text: "started"},
			fakemodel.Reply{Name: "read", When: fakemodel.Match{LastUser: "read " + m}, ToolCalls: []fakemodel.ToolCall{
				{Name: "BashOutput", Input: map[string]any{"bash_id": "bash_1"}},
				{Name: "BashOutput", Input: map[string]any{"bash_id": "bash_9"}},
			}},
			fakemodel.Reply{Name: "read done", When: fakemodel.Match{ToolResult: "ready-" + m}, Text: "read"},
			fakemodel.Reply{Name: "kill", When: fakemodel.Match{LastUser: "kill " + m}, ToolCalls: []fakemodel.ToolCall{{Name: "KillShell", Input: map[string]any{"shell_id": "bash_1"}}}},
			fakemodel.Reply{Name: "killed", When: fakemodel.Match{ToolResult: "Stopped bash_1"}, Text: "killed"},
			fakemodel.Reply{Name: "again", When: fakemodel.Match{LastUser: "again " + m}, ToolCalls: []fakemodel.ToolCall{bg("sleep 94." + m)}},
			fakemodel.Reply{Name: "again started", When: fakemodel.Match{ToolResult: "bash_2"}, Text: "started again"},
		)
		s := w.start("--permission-mode", "default", "--allowedTools", "Bash(echo:*),Bash(sleep:*)")
		s.say("start " + m)
		if r := s.result(); r["result"] != "started" {
			t.Fatalf("result %v", r)
		}
		waitForMarker(t, "95."+m, true)

		s.say("read " + m)
		if r := s.result(); r["result"] != "read" {
			t.Fatalf("result %v", r)
		}
		reqs := w.srv.Requests()
		results := toolResults(reqs[len(reqs)-1])
		if !strings.Contains(results[0].Content, "Status: running") || !strings.Contains(results[0].Content, "ready-"+m) {
			t.Errorf("BashOutput: %q", results[0].Content)
		}
		if !strings.Contains(results[1].Content, "bash_1 (running)") {
			t.Errorf("the shell is not listed: %q", results[1].Content)
		}

		s.say("kill " + m)
		if r := s.result(); r["result"] != "killed" {
			t.Fatalf("result %v", r)
		}
		if left := markerProcesses("95." + m); len(left) > 0 {
			t.Fatalf("KillShell left %v", left)
		}

		s.say("again " + m)
		if r := s.result(); r["result"] != "started again" {
			t.Fatalf("result %v", r)
		}
		waitForMarker(t, "94."+m, true)
		if code := s.close(); code != 0 {
			t.Fatalf("exit %d", code)
		}
		if left := markerProcesses(m); len(left) > 0 {
			t.Fatalf("background shells outlived ponder: %v", left)
		}
		w.allUsed()
	})
}

// SIGTERM ends ponder and its background shells with it: the signal
// arrives while the turn waits for the model.
func TestBackgroundShellEndsWithPonder(t *testing.T) {
	m := fmt.Sprintf("6%03d", os.Getpid()%1000)
	w := newWorld(t, "anthropic",
		fakemodel.Reply{Name: "start", When: fakemodel.Match{LastUser: "start"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Bash", Input: map[string]any{"command": "sleep 93." + m, "run_in_background": true}}}},
		fakemodel.Reply{Name: "slow", When: fakemodel.Match{ToolResult: "bash_1"}, Delay: fakemodel.Duration(time.Minute), Text: "never"},
	)
	cmd := exec.Command(ponderBin, "-p", "start", "--permission-mode", "default", "--allowedTools", "Bash(sleep:*)")
	cmd.Dir, cmd.Env = w.dir, w.env()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	waitForMarker(t, "93."+m, true)
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("ponder did not exit on SIGTERM")
	}
	if left := markerProcesses(m); len(left) > 0 {
		t.Fatalf("a background shell outlived ponder: %v", left)
	}
}
