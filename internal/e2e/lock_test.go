package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	sess "github.com/ponder-agent/ponder/internal/session"
)

// transcript is the path of a session's transcript.
func (w *world) transcript(id string) string {
	return sess.NewStore(w.cfg, w.dir).Path(id)
}

// lineCount counts the lines of a file.
func lineCount(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), "\n")
}

// While one process works in a session, a second --resume of it is
// refused with exit 2, names the first process, suggests --fork-session,
// and writes nothing; a fork of it works meanwhile; once the first ends,
// the session can be resumed.
func TestSessionInUseIsRefused(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "first", When: fakemodel.Match{LastUser: "first turn"}, Text: "one"},
			fakemodel.Reply{Name: "fork", When: fakemodel.Match{LastUser: "fork turn"}, Text: "forked"},
			fakemodel.Reply{Name: "later", When: fakemodel.Match{LastUser: "later turn"}, Text: "later"},
		)
		id := "6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d"
		s := w.start("--session-id", id)
		s.say("first turn")
		s.result()
		before := lineCount(t, w.transcript(id))

		o := w.mustRun(2, "", "-p", "second turn", "--resume", id)
		for _, want := range []string{"in use", "pid " + strconv.Itoa(s.cmd.Process.Pid), "--fork-session"} {
			if !strings.Contains(o.stderr, want) {
				t.Errorf("stderr %q lacks %q", o.stderr, want)
			}
		}
		if after := lineCount(t, w.transcript(id)); after != before {
			t.Errorf("the refused process wrote %d lines", after-before)
		}
		// --continue finds the same session and is refused the same way.
		w.mustRun(2, "", "-p", "second turn", "--continue")
		// A second new session under the same id is refused too.
		w.mustRun(2, "", "-p", "second turn", "--session-id", id)

		o = w.mustRun(0, "", "-p", "fork turn", "--resume", id, "--fork-session", "--output-format", "json")
		if res := lastResult(t, o.stdout); res["result"] != "forked" || res["session_id"] == id {
			t.Fatalf("fork: %v", res)
		}

		if code := s.close(); code != 0 {
			t.Fatalf("first process exit %d: %s", code, s.stderr.String())
		}
		w.mustRun(0, "", "-p", "later turn", "--resume", id)
		for _, r := range w.srv.Requests() {
			if r.LastUser().Text == "second turn" {
				t.Error("a refused process reached the model")
			}
		}
		w.allUsed()
	})
}

// A process killed with SIGKILL, with a command of its still running,
// does not keep its session locked.
func TestLockOfKilledProcessIsFree(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "bash", When: fakemodel.Match{LastUser: "start"}, ToolCalls: tools(call{Name: "Bash",
				Input: map[string]any{"command": "sleep 120 & echo $! > started.fifo; wait"}})},
			fakemodel.Reply{Name: "after", When: fakemodel.Match{LastUser: "again"}, Text: "back"},
		)
		fifo := w.fifo("started.fifo")
		id := "7b6c5d4e-3f20-4b1c-8d9e-0f1a2b3c4d5e"
		s := w.start("--session-id", id, "--allowedTools", "Bash")
		s.say("start")
		bg, _ := strconv.Atoi(readFifo(t, fifo))
		t.Cleanup(func() { syscall.Kill(bg, syscall.SIGKILL) })
		s.cmd.Process.Signal(syscall.SIGKILL)
		s.cmd.Wait()

		o := w.mustRun(0, "", "-p", "again", "--resume", id)
		if strings.TrimSpace(o.stdout) != "back" {
			t.Fatalf("stdout %q stderr %q", o.stdout, o.stderr)
		}
	})
}

// The lock file sits beside the transcript and is gone after a clean
// exit; its name is not taken for a session.
func TestLockFileIsRemovedOnExit(t *testing.T) {
	w := newWorld(t, "anthropic", fakemodel.Reply{Name: "a", Text: "ok"})
	id := "8c7d6e5f-4a3b-4c2d-9e0f-1a2b3c4d5e6f"
	w.mustRun(0, "", "-p", "hello", "--session-id", id)
	dir := filepath.Dir(w.transcript(id))
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if fmt.Sprint(names) != fmt.Sprintf("[%s.jsonl]", id) {
		t.Fatalf("session directory holds %v", names)
	}
}
