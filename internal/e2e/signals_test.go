package e2e

import (
	"bytes"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	sess "github.com/ponder-agent/ponder/internal/session"
)

// spawned is a ponder process the test signals.
type spawned struct {
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
	// peakFile is where a measured process's peak memory is reported
	// (see spawnMeasured).
	peakFile string
}

// spawn starts ponder with args and no standard input.
func (w *world) spawn(args ...string) *spawned {
	w.t.Helper()
	p := &spawned{cmd: exec.Command(ponderBin, args...)}
	p.cmd.Dir = w.dir
	p.cmd.Env = w.env()
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if err := p.cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
	return p
}

// wait waits for the process to end and returns how: its exit code, or
// the signal that killed it.
func (p *spawned) wait(t *testing.T) (code int, killedBy syscall.Signal) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("ponder did not end; stderr:\n%s", p.stderr.String())
	}
	st := p.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if st.Signaled() {
		return -1, st.Signal()
	}
	return st.ExitStatus(), 0
}

// slowCommand is a Bash call whose command tells the test its background
// process id through started.fifo and then waits for it.
var slowCommand = fakemodel.Reply{Name: "slow", When: fakemodel.Match{LastUser: "run the slow thing"}, ToolCalls: tools(call{Name: "Bash",
	Input: map[string]any{"command": "sleep 120 & echo $! > started.fifo; wait", "timeout": 600000}})}

// checkEndedCleanly loads the session's transcript: it must load without
// a warning and end with the results of the calls it made.
func checkEndedCleanly(t *testing.T, w *world, id string) []llm.Message {
	t.Helper()
	tr, err := sess.Load(w.transcript(id))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Warnings) > 0 {
		t.Errorf("the transcript has damage: %v", tr.Warnings)
	}
	conv := tr.Conversation()
	if err := llm.CheckConversation(conv); err != nil {
		t.Errorf("the recorded conversation is not valid: %v", err)
	}
	if last := conv[len(conv)-1]; last.Role != llm.RoleUser || !last.IsToolResult() {
		t.Errorf("the transcript ends with %+v, not with the interrupted call's result", last)
	}
	return conv
}

// A signal that ends ponder (SIGHUP when the terminal goes, SIGTERM,
// SIGINT) cancels the turn: the running command is stopped, ponder exits
// on its own rather than by the signal, and the transcript records the
// interrupted call, so the session resumes.
func TestSignalsStopTheTurnCleanly(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			forAPIs(t, func(t *testing.T, api string) {
				w := newWorld(t, api, slowCommand,
					fakemodel.Reply{Name: "resumed", When: fakemodel.Match{LastUser: "go on"}, Text: "resumed"})
				fifo := w.fifo("started.fifo")
				id := "9d8e7f60-5a4b-4c3d-8e2f-1a0b9c8d7e6f"
				p := w.spawn("-p", "run the slow thing", "--allowedTools", "Bash", "--session-id", id)
				bg, err := strconv.Atoi(readFifo(t, fifo))
				if err != nil {
					t.Fatal(err)
				}
				bg = hostPid(t, w, bg)
				t.Cleanup(func() { syscall.Kill(bg, syscall.SIGKILL) })
				p.cmd.Process.Signal(sig)
				code, killed := p.wait(t)
				if killed != 0 {
					t.Fatalf("ponder was killed by %v instead of stopping", killed)
				}
				if code != 1 || !strings.Contains(p.stderr.String(), "interrupted") {
					t.Errorf("exit %d, stderr %q", code, p.stderr.String())
				}
				waitGone(t, bg, "the command's background process")
				checkEndedCleanly(t, w, id)
				o := w.mustRun(0, "", "-p", "go on", "--resume", id)
				if strings.TrimSpace(o.stdout) != "resumed" {
					t.Fatalf("resume: %q %q", o.stdout, o.stderr)
				}
				checkRequests(t, w.srv.Requests())
			})
		})
	}
}

// Closing the terminal of the interactive interface (tmux kill-server
// hangs its pty up) stops the running command and ends the transcript
// cleanly.
func TestHangupInTheInterface(t *testing.T) {
	w := newWorld(t, "anthropic", slowCommand)
	fifo := w.fifo("started.fifo")
	id := "0e9f8a71-6b5c-4d4e-9f30-2b1c0d9e8f7a"
	term := w.terminal("--allowedTools", "Bash", "--session-id", id)
	term.waitFor("the status bar", func(s string) bool { return strings.Contains(statusLine(s), "default") })
	out, err := exec.Command("tmux", "-L", term.socket, "list-panes", "-F", "#{pane_pid}").Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	term.typeText("run the slow thing")
	term.send("Enter")
	bg, err := strconv.Atoi(readFifo(t, fifo))
	if err != nil {
		t.Fatal(err)
	}
	bg = hostPid(t, w, bg)
	t.Cleanup(func() { syscall.Kill(bg, syscall.SIGKILL) })
	exec.Command("tmux", "-L", term.socket, "kill-server").Run()
	waitGone(t, pid, "ponder")
	waitGone(t, bg, "the command's background process")
	checkEndedCleanly(t, w, id)
}

// With a host on stream-json input, a signal ends the run too, though
// the host keeps its end of standard input open.
func TestSignalEndsAStreamJSONRun(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, slowCommand)
		fifo := w.fifo("started.fifo")
		id := "1a0b9c82-7d6e-4f5a-8b41-3c2d1e0f9a8c"
		s := w.start("--allowedTools", "Bash", "--session-id", id)
		s.say("run the slow thing")
		bg, err := strconv.Atoi(readFifo(t, fifo))
		if err != nil {
			t.Fatal(err)
		}
		bg = hostPid(t, w, bg)
		t.Cleanup(func() { syscall.Kill(bg, syscall.SIGKILL) })
		s.cmd.Process.Signal(syscall.SIGHUP)
		res := s.result()
		if res["subtype"] != "error" || !strings.Contains(fmt.Sprint(res["error"]), "interrupted") {
			t.Errorf("result %v", res)
		}
		done := make(chan error, 1)
		go func() { done <- s.cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("ponder kept running after SIGHUP while standard input stayed open")
		}
		if st := s.cmd.ProcessState.Sys().(syscall.WaitStatus); st.Signaled() {
			t.Fatalf("ponder was killed by %v", st.Signal())
		}
		waitGone(t, bg, "the command's background process")
		checkEndedCleanly(t, w, id)
	})
}
