package tui

import (
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/event"
)

// An approved plan's steps are the checklist of the status area at once:
// done/total and the step under way.
func TestApprovedPlanStepsShowAsTheChecklist(t *testing.T) {
	f := newFixture(t, false)
	f.m.handleEvent(event.PlanApproved{Option: "accept-edits", Mode: "acceptEdits", PlanFile: "/p/plan.md", Title: "Greet",
		Files: []string{"greet.txt", "NOTES.md"}, Steps: []event.TodoItem{
			{Content: "Write the greeting to `greet.txt`", Status: event.TodoPending, ActiveForm: "Working on: greeting"},
			{Content: "Mention it in `NOTES.md`", Status: event.TodoPending, ActiveForm: "Working on: notes"},
			{Content: "Check it", Status: event.TodoPending, ActiveForm: "Working on: check"},
		}})
	f.m.running, f.m.turnStart = true, f.m.now()
	screen := f.screen()
	if !strings.Contains(screen, "Todos 0/3 · step 1: Write the greeting") || !strings.Contains(screen, "Its 3 steps are the todo list") {
		t.Fatalf("no checklist:\n%s", screen)
	}
	golden(t, "plan-steps", screen)
}

// The report of an implementation shows as a notice: the summary, the
// steps not done, the files out of line.
func TestPlanReportNotice(t *testing.T) {
	f := newFixture(t, false)
	f.m.handleEvent(event.PlanReport{PlanFile: "/p/plan.md", ReportFile: "/p/plan.report.txt", Title: "Greet",
		Steps:     []event.StepCheck{{Step: "Write it", Status: event.StepDone}, {Step: "Check it", Status: event.StepSkipped}},
		Unplanned: []string{"other.txt"}, Summary: "1 of 2 steps done. 1 file(s) changed outside the plan."})
	screen := f.screen()
	if !strings.Contains(screen, "step 2 skipped: Check it") || !strings.Contains(screen, "not in the plan: other.txt") {
		t.Fatalf("no report:\n%s", screen)
	}
	golden(t, "plan-report", screen)
}
