package planmode

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/event"
)

func TestCheckComparesTheWorkWithThePlan(t *testing.T) {
	root := t.TempDir()
	c := Carried{Outline: ParseOutline(shapedPlan), PlanFile: "/plans/x.md"}
	todos := c.StepItems()
	// Untouched list: nothing tracked, nothing asked.
	r := Check(c, Work{Todos: todos}, root)
	if r.Steps[0].Status != event.StepUntracked || Drift(r) != true || len(r.Untouched) != 2 {
		t.Fatalf("untracked: %+v", r)
	}
	todos[0].Status = event.TodoCompleted
	todos[1].Content = "Call it from somewhere else"
	r = Check(c, Work{Todos: todos, Changed: []string{filepath.Join(root, "src/greet.go"), filepath.Join(root, "src/api/h.go"),
		filepath.Join(root, "extra.go"), filepath.Join(root, "extra.go")}, Commands: []string{"make"}}, root)
	want := []event.StepStatus{event.StepDone, event.StepChanged, event.StepSkipped}
	for i, s := range r.Steps {
		if s.Status != want[i] {
			t.Errorf("step %d: %s, want %s", i+1, s.Status, want[i])
		}
	}
	if strings.Join(r.Unplanned, ",") != "extra.go" || strings.Join(r.Untouched, ",") != "cmd/main.go" || !Drift(r) {
		t.Errorf("files: unplanned %q untouched %q", r.Unplanned, r.Untouched)
	}
	md := ReportMarkdown(r)
	for _, s := range []string{"1 of 3 steps done", "[changed] Call it", "- extra.go", "- cmd/main.go", "- make"} {
		if !strings.Contains(md, s) {
			t.Errorf("report lacks %q:\n%s", s, md)
		}
	}
	if p := DriftPrompt(r); !strings.Contains(p, "Step 3 is not done") || !strings.Contains(p, "extra.go was changed") {
		t.Errorf("drift prompt:\n%s", p)
	}
	// A plan that names no file is not held to its files.
	bare := Carried{Outline: ParseOutline("1. do it\n")}
	if r := Check(bare, Work{Todos: bare.StepItems(), Changed: []string{filepath.Join(root, "a.go")}}, root); Drift(r) {
		t.Errorf("a plan without files drifts: %+v", r)
	}
	if ReportPath("/p/x.md") != "/p/x.report.txt" {
		t.Error(ReportPath("/p/x.md"))
	}
}
