package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// Approving a plan with comments on its lines: the comments reach the
// implementing model as notes, under the lines they are about, whether
// it continues the conversation or starts afresh from the plan.
func TestApprovalWithCommentsGivesTheModelNotes(t *testing.T) {
	const note = "Line 3:\n> 1. Create hello.txt saying hello.\nNote: say bonjour too"
	for _, option := range []string{"accept-edits", "clear-context"} {
		t.Run(option, func(t *testing.T) {
			forAPIs(t, func(t *testing.T, api string) {
				w := newWorld(t, api,
					writePlanText("plan", planV1, fakemodel.Match{LastUser: "add a greeting"}),
					fakemodel.Reply{Name: "exit", When: fakemodel.Match{ToolResult: "Created"}, ToolCalls: []fakemodel.ToolCall{{Name: "ExitPlanMode", Input: map[string]any{}}}},
					fakemodel.Reply{Name: "implement", When: fakemodel.Match{Func: func(r *fakemodel.Request) bool {
						return strings.Contains(fmt.Sprint(r.LastUser()), "say bonjour too")
					}}, Text: "Following your notes."},
				)
				s := w.start("--permission-mode", "plan")
				s.say("add a greeting")
				req := s.control("plan_exit")
				opts := fmt.Sprint(req["request"].(map[string]any)["options"])
				if !strings.Contains(opts, "with my comments as notes") {
					t.Fatalf("the options do not say which carry comments: %s", opts)
				}
				s.answer(req, map[string]any{"option": option, "annotations": []map[string]any{{"line": 3, "comment": "say bonjour too"}}})
				if res := s.result(); res["result"] != "Following your notes." {
					t.Fatalf("result %v", res)
				}
				s.close()
				reqs := w.srv.Requests()
				last := fmt.Sprint(reqs[len(reqs)-1].LastUser())
				if !strings.Contains(last, note) || !strings.Contains(last, "approved the plan with these notes") {
					t.Fatalf("the implementing model did not get the notes:\n%s", last)
				}
				w.allUsed()
			})
		})
	}
}
