package app

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/permission"
)

// What front ends may do goes through the same guards as everything
// else: a host cannot talk its way into bypass mode, and a name that is no
// mode is refused with the reason.
func TestSetModeFromAFrontEnd(t *testing.T) {
	a, _ := newTestApp(t, Options{Interactive: true})
	if err := a.SetMode(event.ModeBypass, "control"); err == nil || !strings.Contains(err.Error(), "--dangerously-skip-permissions") || a.Mode() != event.ModeDefault {
		t.Fatalf("bypass from a host: %v, mode %s", err, a.Mode())
	}
	if err := a.SetMode("yolo", "control"); err == nil || a.Mode() != event.ModeDefault {
		t.Fatalf("no such mode: %v", err)
	}
	if err := a.SetMode(event.ModePlan, "sdk"); err != nil || a.Mode() != event.ModePlan {
		t.Fatalf("plan: %v, mode %s", err, a.Mode())
	}
	if ModeTitle(a.Mode()) != "plan mode" {
		t.Fatalf("title %q", ModeTitle(a.Mode()))
	}
}

// The editor gets the plan file: created (through plan mode) when plan
// mode is on and there is none yet, refused otherwise.
func TestPlanForEditor(t *testing.T) {
	a, _ := newTestApp(t, Options{Interactive: true, PlanName: "fixed-name"})
	if _, err := a.PlanForEditor(); !errors.Is(err, ErrNoPlan) {
		t.Fatalf("outside plan mode: %v", err)
	}
	a.SetMode(event.ModePlan, "tui")
	path, err := a.PlanForEditor()
	if err != nil || !strings.HasSuffix(path, "/fixed-name.md") {
		t.Fatalf("PlanForEditor = %q, %v", path, err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

// The flags' values come from the approval table.
func TestApprovalFlagsComeFromTheTable(t *testing.T) {
	for _, ok := range []string{"", "pending", "approve", "accept-edits", "manual", "clear-context", "reject"} {
		if err := CheckPlanApproval(ok); err != nil {
			t.Errorf("--plan-approval %q: %v", ok, err)
		}
	}
	if err := CheckPlanApproval("yes"); err == nil || !strings.Contains(err.Error(), "accept-edits") {
		t.Errorf("--plan-approval yes: %v", err)
	}
	if err := CheckApprovalOption("reject"); err == nil {
		t.Error("--approve-plan reject was accepted")
	}
	if _, err := New(Options{PlanApproval: "maybe"}); err == nil || ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "--plan-approval") {
		t.Errorf("a bad policy: %v", err)
	}
	if _, err := New(Options{PlanName: "../escape"}); err == nil || ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "plan name") {
		t.Errorf("a plan name that is a path: %v", err)
	}
}

// The rule language's words for kinds of access agree with what the
// tools of that name declare, so a rule means the same whether or not
// the engine was told the tools.
func TestRuleWordsAgreeWithTheTools(t *testing.T) {
	a, _ := newTestApp(t, Options{Interactive: true})
	for name, kind := range a.tools.Kinds() {
		if word, ok := permission.WordKind(name); ok && word != kind {
			t.Errorf("%s declares %s, and rules take it for %s", name, kind, word)
		}
	}
}
