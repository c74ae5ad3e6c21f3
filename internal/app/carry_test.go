package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/permission"
)

// /plan save copies the approved plan into the project, and nowhere a
// rule or plan mode forbids; /plan diff and /plan check answer.
func TestPlanSaveDiffAndCheck(t *testing.T) {
	plan := "# Save me\n\n## Implementation\n\n1. Write `a.txt`\n"
	a, _ := newTestApp(t, Options{Asker: answerer{permission.Answer{Option: event.OptionApproveStop}}, Mode: event.ModePlan,
		Disallowed: []string{"Edit(secret/**)"}},
		fakemodel.Reply{When: fakemodel.Match{LastUser: "plan it"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Write", InputFunc: func(r *fakemodel.Request) any {
				return map[string]any{"file_path": planFileFromRequest(r), "content": plan}
			}},
		}},
		fakemodel.Reply{When: fakemodel.Match{ToolResult: "Created"}, ToolCalls: []fakemodel.ToolCall{{Name: "ExitPlanMode", Input: map[string]any{}}}},
	)
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	if out := a.PlanCommand("save docs/plan.md", false); !out.Refused || !strings.Contains(out.Message, "Plan mode") {
		t.Fatalf("saved in plan mode: %+v", out)
	}
	if _, err := a.Send(context.Background(), "plan it"); err != nil {
		t.Fatal(err)
	}
	// The session is named after the plan it approved.
	if list, err := a.Sessions(); err != nil || len(list) != 1 || list[0].Title != "Save me" {
		t.Errorf("sessions %+v %v", list, err)
	}
	if out := a.PlanCommand("save docs/plans/saved.md", false); out.Refused {
		t.Fatalf("not saved: %s", out.Message)
	}
	if data, err := os.ReadFile(filepath.Join(a.root, "docs", "plans", "saved.md")); err != nil || string(data) != plan {
		t.Fatalf("saved copy %q %v", data, err)
	}
	for _, bad := range []string{"../outside.md", "secret/plan.md", ".git/hooks/pre-commit", ""} {
		if out := a.PlanCommand("save "+bad, false); !out.Refused {
			t.Errorf("/plan save %q was allowed: %s", bad, out.Message)
		}
	}
	if out := a.PlanCommand("check", false); out.Refused || !strings.Contains(out.Message, ".report.txt") {
		t.Errorf("/plan check: %+v", out)
	}
	if out := a.PlanCommand("diff", false); !out.Refused || !strings.Contains(out.Message, "nothing to compare") {
		t.Errorf("/plan diff with one version: %+v", out)
	}
}
