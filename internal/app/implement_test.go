package app

import (
	"context"
	"testing"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/permission"
)

// answerer answers every plan approval the same way.
type answerer struct{ ans permission.Answer }

func (a answerer) Ask(context.Context, permission.Question) (permission.Answer, error) {
	return a.ans, nil
}

// An approval that clears the conversation still carries the chosen model
// and the grants into the fresh conversation: the first request of the
// implementation goes to that model and tells it what it was granted.
func TestClearedConversationKeepsModelAndGrants(t *testing.T) {
	ans := permission.Answer{Option: event.OptionClearContext, Model: "impl-model", Grant: []string{"Bash(make build)"}}
	a, prov := newTestApp(t, Options{Asker: answerer{ans}, Mode: event.ModePlan},
		fakemodel.Reply{When: fakemodel.Match{LastUser: "plan it"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Write", InputFunc: func(r *fakemodel.Request) any {
				return map[string]any{"file_path": planFileFromRequest(r), "content": "# plan\n1. build\n"}
			}},
		}},
		fakemodel.Reply{When: fakemodel.Match{ToolResult: "Created"}, ToolCalls: []fakemodel.ToolCall{{Name: "ExitPlanMode",
			Input: map[string]any{"permissions": []map[string]any{{"rule": "Bash(make build)", "reason": "build"}}}}}},
		fakemodel.Reply{When: fakemodel.Match{Model: "impl-model", LastUser: "- Bash(make build)"}, Text: "implementing"},
	)
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	res, err := a.Send(context.Background(), "plan it")
	if err != nil || res.Text != "implementing" {
		t.Fatalf("result %+v, %v", res, err)
	}
	if a.Model() != "impl-model" || a.Mode() != event.ModeDefault {
		t.Fatalf("model %s mode %s", a.Model(), a.Mode())
	}
	if got := prov.Unused(); len(got) != 0 {
		t.Fatalf("unused replies %v", got)
	}
	// The grant holds: a build runs without asking.
	d := a.perm.Decide(permission.Context{Mode: permission.ModeDefault}, permission.Access{Tool: "Bash", Kind: permission.KindExec, Command: "make build"})
	if d.Behavior != permission.Allow {
		t.Fatalf("granted rule not in force: %+v", d)
	}
}
