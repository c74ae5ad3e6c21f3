package e2e

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// A command started outside the sandbox before plan mode does not run on
// into it: whether the host or the model turns plan mode on, the job is
// dead by the time the change is announced, a file it would have made
// never appears, and the model learns the job was stopped.
func TestPlanModeStopsCommandsStartedBeforeIt(t *testing.T) {
	for _, via := range []string{"host", "tool"} {
		t.Run(via, func(t *testing.T) {
			forAPIs(t, func(t *testing.T, api string) {
				// The job records its pid, then keeps appending and, once
				// the trigger exists, writes the file plan mode forbids.
				job := `echo $$ > job.pid; while :; do date >> ticks; if [ -e trigger ]; then echo x > pwned; fi; sleep 0.02; done`
				replies := []fakemodel.Reply{
					{Name: "job", When: fakemodel.Match{LastUser: "start the watcher"},
						ToolCalls: tools(call{Name: "Bash", Input: map[string]any{"command": job, "run_in_background": true}})},
					{Name: "wait", When: fakemodel.Match{ToolResult: "Started in the background"},
						ToolCalls: tools(call{Name: "Bash", Input: map[string]any{"command": "until [ -s job.pid ]; do sleep 0.01; done; echo job is up"}})},
					{Name: "started", When: fakemodel.Match{ToolResult: "job is up"}, Text: "watching"},
					{Name: "check", When: fakemodel.Match{LastUser: "how is the watcher"},
						ToolCalls: tools(call{Name: "BashOutput", Input: map[string]any{"bash_id": "bash_1"}})},
					{Name: "told", When: fakemodel.Match{ToolResult: "bash_1"}, Text: "noted"},
				}
				if via == "tool" {
					replies[2] = fakemodel.Reply{Name: "enter", When: fakemodel.Match{ToolResult: "job is up"},
						ToolCalls: tools(call{Name: "EnterPlanMode", Input: map[string]any{}})}
					replies = append(replies, fakemodel.Reply{Name: "planning", When: fakemodel.Match{ToolResult: "Plan mode is on"}, Text: "planning"})
				}
				w := newWorld(t, api, replies...)
				s := w.start("--permission-mode", "acceptEdits", "--allowedTools", "Bash")
				s.say("start the watcher")
				if via == "tool" {
					s.answer(s.control("enter_plan_mode"), map[string]any{"behavior": "allow"})
				} else {
					s.result()
					if !alive(jobPid(t, w)) {
						t.Fatal("the job had ended before plan mode began")
					}
					s.send(map[string]any{"type": "control_request", "request_id": "m1", "request": map[string]any{"subtype": "set_permission_mode", "mode": "plan"}})
				}
				s.next("plan_mode_entered", func(m map[string]any) bool { return m["event"] == "plan_mode_entered" })
				pid := jobPid(t, w)
				if alive(pid) {
					t.Fatalf("the job (pid %d) still runs in plan mode", pid)
				}
				ticks := w.read("ticks")
				w.write("trigger", "")
				if via == "tool" {
					s.result() // the turn that entered plan mode
				}
				s.say("how is the watcher")
				s.result()
				s.close()
				if w.read("pwned") != "<missing>" {
					t.Fatal("the job wrote a file in plan mode")
				}
				if got := w.read("ticks"); got != ticks {
					t.Fatal("the job kept writing after plan mode began")
				}
				last := w.srv.Requests()
				if !last[len(last)-1].ContainsText("stopped when plan mode began") {
					t.Fatal("BashOutput did not say plan mode stopped the job")
				}
			})
		})
	}
}

// jobPid reads the pid the job wrote (the model waited for it). A job
// confined to its workspace is the first process of a PID namespace of
// its own and writes 1: its pid here is that of the shell running the
// job's line in the project.
func jobPid(t *testing.T, w *world) int {
	t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(w.read("job.pid")))
	if err != nil {
		t.Fatalf("job.pid: %v", err)
	}
	if pid != 1 {
		return pid
	}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmd, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		cwd, _ := os.Readlink("/proc/" + e.Name() + "/cwd")
		if strings.Contains(string(cmd), "date >> ticks") && cwd == w.dir {
			return n
		}
	}
	return -1 // gone
}

// alive reports whether a process runs (a zombie counts as ended).
func alive(pid int) bool {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(raw)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}
