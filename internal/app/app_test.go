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
	"github.com/ponder-agent/ponder/internal/planmode"
)

// newTestApp builds an app over the in-process fake.
func newTestApp(t *testing.T, opts Options, replies ...fakemodel.Reply) (*App, *fakemodel.Provider) {
	t.Helper()
	prov := fakemodel.NewProvider(fakemodel.Script{Replies: replies})
	base := t.TempDir()
	opts.Dir = filepath.Join(base, "project")
	opts.ConfigDir = filepath.Join(base, "config")
	opts.LLM = prov
	opts.Getenv = func(string) string { return "" }
	os.MkdirAll(opts.Dir, 0o755)
	a, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a, prov
}

// The plan events reach front ends on the in-process bus, in order, and
// a front end answers the approval through the app.
func TestPlanEventsOnTheBus(t *testing.T) {
	a, _ := newTestApp(t, Options{Interactive: true},
		fakemodel.Reply{When: fakemodel.Match{LastUser: "plan it"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Write", InputFunc: func(r *fakemodel.Request) any {
				return map[string]any{"file_path": "sneaky.go", "content": "x"}
			}},
		}},
		fakemodel.Reply{When: fakemodel.Match{ToolResult: "Plan mode is on"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Write", InputFunc: func(r *fakemodel.Request) any {
				// The path the first request's reminder names.
				return map[string]any{"file_path": planFileFromRequest(r), "content": "# plan"}
			}},
		}},
		fakemodel.Reply{When: fakemodel.Match{ToolResult: "Created"}, ToolCalls: []fakemodel.ToolCall{{Name: "ExitPlanMode", Input: map[string]any{}}}},
		fakemodel.Reply{When: fakemodel.Match{ToolResult: "approved your plan"}, Text: "done"},
	)
	events, stop := a.bus.Subscribe(256)
	defer stop()
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	if err := a.SetMode(event.ModePlan, "sdk"); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := a.Send(context.Background(), "plan it")
		done <- err
	}()
	var kinds []string
	for e := range events {
		kinds = append(kinds, e.Kind())
		if q, ok := e.(event.QuestionAsked); ok && q.Question.Kind == event.AskPlanExit {
			if !a.Answer(q.Question.ID, permission.Answer{Option: planmode.OptionAcceptEdits}) {
				t.Fatal("answer not accepted")
			}
		}
		if _, ok := e.(event.TurnFinished); ok {
			break
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got := strings.Join(kinds, " ")
	order := []string{"session_started", "mode_changed", "plan_mode_entered", "tool_refused", "plan_exit_requested", "question", "mode_changed", "plan_approved"}
	pos := 0
	for _, k := range kinds {
		if pos < len(order) && k == order[pos] {
			pos++
		}
	}
	if pos != len(order) {
		t.Fatalf("events out of order or missing (matched %d of %v):\n%s", pos, order, got)
	}
	if a.Mode() != event.ModeAcceptEdits {
		t.Fatalf("mode %s", a.Mode())
	}
}

func planFileFromRequest(r *fakemodel.Request) string {
	for _, m := range r.Messages {
		if i := strings.Index(m.Text, "Create it at "); i >= 0 {
			rest := m.Text[i+len("Create it at "):]
			return strings.Fields(rest)[0]
		}
	}
	return "missing"
}
