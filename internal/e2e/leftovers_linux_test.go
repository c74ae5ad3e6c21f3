package e2e

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// running reports whether pid is a live process (a zombie is not).
func running(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && len(s) > i+2 && s[i+2] != 'Z' && s[i+2] != 'X'
}

// A ponder killed with SIGKILL cannot stop what its command left running;
// the next ponder to start does, and leaves alone a process of the same
// user that no command of ponder's started.
func TestKilledPonderLeftoversAreStoppedAtNextStart(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, slowCommand, fakemodel.Reply{Name: "hello", When: fakemodel.Match{LastUser: "hello"}, Text: "hi"})
		// The settings guard is the line behind the sandbox: these commands
		// run where there is none, as they would unconfined.
		w.extraEnv = append(w.extraEnv, "PONDER_SANDBOX=none")
		fifo := w.fifo("started.fifo")
		bystander := exec.Command("sleep", "120")
		if err := bystander.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { bystander.Process.Kill(); bystander.Wait() })

		p := w.spawn("-p", "run the slow thing", "--allowedTools", "Bash")
		bg, err := strconv.Atoi(readFifo(t, fifo))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { syscall.Kill(bg, syscall.SIGKILL) })
		p.cmd.Process.Kill()
		if _, sig := p.wait(t); sig != syscall.SIGKILL {
			t.Fatalf("ponder ended by %v", sig)
		}
		if !running(bg) {
			t.Skip("the command's background process died with ponder (a PID namespace): nothing to sweep")
		}

		o := w.mustRun(0, "", "-p", "hello")
		if strings.TrimSpace(o.stdout) != "hi" {
			t.Fatalf("stdout %q", o.stdout)
		}
		if running(bg) {
			t.Errorf("the background process %d of the killed ponder's command still runs", bg)
		}
		if !running(bystander.Process.Pid) {
			t.Errorf("a process no command of ponder's started was killed")
		}
	})
}
