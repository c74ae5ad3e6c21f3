package e2e

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/testenv"
)

// terminal is ponder's interface running in a private tmux server.
type terminal struct {
	t      *testing.T
	socket string
}

func (w *world) terminal(args ...string) *terminal {
	w.t.Helper()
	testenv.Program(w.t, "tmux", "the interface tests drive ponder in a terminal")
	term := &terminal{t: w.t, socket: fmt.Sprintf("ponder-e2e-%d", time.Now().UnixNano())}
	cmdline := []string{"env", "-i"}
	cmdline = append(cmdline, w.env()...)
	cmdline = append(cmdline, "TERM=xterm-256color", "NO_COLOR=1", "EDITOR=true", ponderBin)
	cmdline = append(cmdline, args...)
	tmux := append([]string{"-L", term.socket, "new-session", "-d", "-x", "110", "-y", "34", "-c", w.dir}, cmdline...)
	if out, err := exec.Command("tmux", tmux...).CombinedOutput(); err != nil {
		w.t.Fatalf("tmux: %v\n%s", err, out)
	}
	pid := term.panePID()
	w.t.Cleanup(func() {
		exec.Command("tmux", "-L", term.socket, "kill-server").Run()
		// ponder writes its last records as it exits; the test's
		// temporary directories are removed only once it has.
		if pid > 0 {
			waitGone(w.t, pid, "ponder in the terminal")
		}
	})
	return term
}

// panePID is the process id of the program in the terminal's pane (ponder,
// once env has run it), or 0 when tmux cannot say.
func (term *terminal) panePID() int {
	out, err := exec.Command("tmux", "-L", term.socket, "display-message", "-p", "-t", "0", "#{pane_pid}").Output()
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	return pid
}

// screen returns what the terminal shows.
func (term *terminal) screen() string {
	out, _ := exec.Command("tmux", "-L", term.socket, "capture-pane", "-p").Output()
	return string(out)
}

// waitFor polls the screen until it satisfies ok; the deadline is generous
// because CI machines are slow, and the poll ends as soon as it holds.
func (term *terminal) waitFor(what string, ok func(string) bool) string {
	term.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := term.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			term.t.Fatalf("the screen never showed %s:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (term *terminal) waitText(text string) string {
	term.t.Helper()
	return term.waitFor(fmt.Sprintf("%q", text), func(s string) bool { return strings.Contains(s, text) })
}

// statusLine returns the last non-empty line: the status bar.
func statusLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n "), "\n")
	return lines[len(lines)-1]
}

func (term *terminal) send(keys ...string) {
	term.t.Helper()
	args := append([]string{"-L", term.socket, "send-keys", "-t", "0"}, keys...)
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		term.t.Fatalf("send-keys %v: %v\n%s", keys, err, out)
	}
}

// typeText types literal text.
func (term *terminal) typeText(s string) { term.send("-l", s) }

func TestInterfacePlanApproveAndImplement(t *testing.T) {
	w := newWorld(t, "anthropic",
		writePlan(fakemodel.Match{LastUser: "add a greeting"}),
		exitPlan,
		implement("approved your plan"),
		finished,
	)
	term := w.terminal()
	term.waitFor("the status bar", func(s string) bool { return strings.Contains(statusLine(s), "default") })

	// /plan enters plan mode: the status bar and the hint say so.
	term.typeText("/plan")
	term.send("Enter")
	s := term.waitFor("plan mode in the status bar", func(s string) bool { return strings.Contains(statusLine(s), "plan mode") })
	if !strings.Contains(s, "◆ planning") || !strings.Contains(s, "plan file ~/config/plans/") {
		t.Fatalf("no plan hint naming the plan file:\n%s", s)
	}

	// Shift+Tab goes round: default, accept edits, plan mode.
	for _, want := range []string{"default", "accept edits", "plan mode"} {
		term.send("BTab")
		term.waitFor(want+" after Shift+Tab", func(s string) bool { return strings.Contains(statusLine(s), want) })
	}

	// The model plans; its attempt to jump ahead is refused; the plan
	// shows in the approval dialog.
	term.typeText("add a greeting")
	term.send("Enter")
	s = term.waitText("Ready to code?")
	for _, want := range []string{"Greeting", "Create hello.txt saying hello", "1. Yes, and auto-accept edits", "No, keep planning"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the approval dialog lacks %q:\n%s", want, s)
		}
	}
	if w.read("hello.txt") != "<missing>" {
		t.Fatal("a project file changed before approval")
	}

	// Enter approves with the first option; the implementation follows.
	term.send("Enter")
	term.waitText("Implemented the plan.")
	if got := w.read("hello.txt"); got != "hello\n" {
		t.Fatalf("hello.txt = %q", got)
	}
	term.waitFor("accept edits after approval", func(s string) bool { return strings.Contains(statusLine(s), "accept edits") })
	w.allUsed()
}

func TestInterfaceRejectionFeedbackReachesTheModel(t *testing.T) {
	w := newWorld(t, "openai",
		writePlan(fakemodel.Match{LastUser: "add a greeting"}),
		exitPlan,
		fakemodel.Reply{Name: "revise", When: fakemodel.Match{ToolResult: "greet in French too"}, Text: "Revising the plan for French."},
	)
	term := w.terminal("--permission-mode", "plan")
	term.waitFor("plan mode", func(s string) bool { return strings.Contains(statusLine(s), "plan mode") })
	term.typeText("add a greeting")
	term.send("Enter")
	term.waitText("Ready to code?")
	term.send("4") // No, keep planning
	term.waitText("what should change in the plan?")
	term.typeText("greet in French too")
	term.send("Enter")
	term.waitText("Revising the plan for French.")
	s := term.screen()
	if !strings.Contains(statusLine(s), "plan mode") {
		t.Fatalf("plan mode must stay on after a rejection:\n%s", s)
	}
	w.allUsed()
}

func TestInterfaceEditPlanInTheEditor(t *testing.T) {
	w := newWorld(t, "anthropic",
		writePlan(fakemodel.Match{LastUser: "add a greeting"}),
		exitPlan,
		fakemodel.Reply{Name: "edited", When: fakemodel.Match{ToolResult: "Approved plan (edited by the user)"}, Text: "I will follow your edited plan."},
	)
	// An editor that appends a line and exits, as a person would after
	// typing it.
	editor := w.write("edit.sh", "#!/bin/sh\nprintf '3. Also greet in French.\\n' >> \"$1\"\n")
	if err := exec.Command("chmod", "+x", editor).Run(); err != nil {
		t.Fatal(err)
	}
	w.extraEnv = append(w.extraEnv, "VISUAL="+editor)
	term := w.terminal("--permission-mode", "plan")
	term.waitFor("plan mode", func(s string) bool { return strings.Contains(statusLine(s), "plan mode") })
	term.typeText("add a greeting")
	term.send("Enter")
	term.waitText("Ready to code?")
	term.send("C-g")
	term.waitText("(edited by you)")
	term.waitText("Also greet in French.")
	term.send("Enter")
	term.waitText("I will follow your edited plan.")
	// The edited plan is what the plan file now holds.
	reqs := w.srv.Requests()
	last := toolResults(reqs[len(reqs)-1])
	if len(last) != 1 || !strings.Contains(last[0].Content, "3. Also greet in French.") {
		t.Fatalf("the model did not get the edited plan: %+v", last)
	}
	// /plan open opens the plan file itself.
	term.send("BTab") // accept edits → plan mode
	term.waitFor("plan mode", func(s string) bool { return strings.Contains(statusLine(s), "plan mode") })
	term.typeText("/plan open")
	term.send("Enter")
	term.waitText("Opened the plan in the editor")
	w.allUsed()
}

func TestInterfaceAsksAgainForAPendingPlan(t *testing.T) {
	w := newWorld(t, "anthropic",
		writePlan(fakemodel.Match{LastUser: "add a greeting"}),
		exitPlan,
		implement("approved your plan"),
		finished,
	)
	o := w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--output-format", "json")
	id := fmt.Sprint(lastResult(t, o.stdout)["session_id"])
	term := w.terminal("--resume", id)
	s := term.waitText("Ready to code?")
	if !strings.Contains(s, "Create hello.txt saying hello") {
		t.Fatalf("the pending plan is not shown:\n%s", s)
	}
	term.send("Enter")
	term.waitText("Implemented the plan.")
	if w.read("hello.txt") != "hello\n" {
		t.Fatal("the implementation did not run")
	}
}
