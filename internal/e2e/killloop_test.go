package e2e

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	sess "github.com/ponder-agent/ponder/internal/session"
)

// killLoops is how many times TestKill9Loop kills ponder; set
// PONDER_KILL_LOOPS for a longer run (bench/killloop.sh).
func killLoops() int {
	if n, err := strconv.Atoi(os.Getenv("PONDER_KILL_LOOPS")); err == nil && n > 0 {
		return n
	}
	return 4
}

// A session that works through many tool calls is killed with SIGKILL at
// random points (while a reply streams, a tool runs, a file or the
// transcript is written), resumed each time, and finally finished. Every
// request the model got was valid for the API, the files it wrote are
// whole, and the transcript loads without unreported damage.
func TestKill9Loop(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		content := strings.Repeat("a line of the file the model writes again and again\n", 4000)
		w := newWorld(t, api,
			fakemodel.Reply{Name: "finish", When: fakemodel.Match{LastUser: "finish now"}, Text: "all done", Times: -1},
			fakemodel.Reply{Name: "step", Times: -1, ChunkDelay: fakemodel.Duration(time.Millisecond), ToolCalls: tools(
				call{Name: "Write", Input: map[string]any{"file_path": "out.txt", "content": content}},
				call{Name: "Bash", Input: map[string]any{"command": "echo step >> steps.log"}},
				call{Name: "Read", Input: map[string]any{"file_path": "out.txt", "limit": 2}},
			)},
		)
		id := "4c3d2e15-0f9a-4b8c-9d7e-6f5a4b3c2d1e"
		rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
		args := []string{"-p", "work on it", "--session-id", id}
		for kill := range killLoops() {
			before := len(w.srv.Requests())
			p := w.spawn(append(args, "--permission-mode", "acceptEdits", "--allowedTools", "Bash")...)
			// Let it make a few requests, then kill it somewhere in the
			// middle of whatever it is doing.
			want := before + 1 + rng.IntN(3)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			err := w.srv.WaitFor(ctx, func(rs []fakemodel.Request) bool { return len(rs) >= want })
			cancel()
			if err != nil {
				t.Fatalf("kill %d: ponder made no progress: %v\n%s", kill, err, p.stderr.String())
			}
			time.Sleep(time.Duration(rng.IntN(40)) * time.Millisecond) // a random point, not a synchronisation
			p.cmd.Process.Signal(syscall.SIGKILL)
			p.wait(t)
			if got := w.read("out.txt"); got != "<missing>" && got != content {
				t.Fatalf("kill %d: out.txt holds %d bytes, not the whole file", kill, len(got))
			}
			args = []string{"-p", "go on", "--resume", id}
		}
		o := w.mustRun(0, "", "-p", "finish now", "--resume", id, "--permission-mode", "acceptEdits", "--allowedTools", "Bash")
		if strings.TrimSpace(o.stdout) != "all done" {
			t.Fatalf("stdout %q stderr %q", o.stdout, o.stderr)
		}
		checkRequests(t, w.srv.Requests())
		tr, err := sess.Load(w.transcript(id))
		if err != nil {
			t.Fatal(err)
		}
		conv, _, notes := tr.Resumable(false)
		if len(tr.Warnings) > 0 || len(notes) > 0 {
			t.Errorf("damage left unreported: %v %v", tr.Warnings, notes)
		}
		if last := conv[len(conv)-1]; last.Text() != "all done" {
			t.Errorf("the transcript ends with %+v", last)
		}
	})
}
