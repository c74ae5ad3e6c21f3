package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// The files a plan turn read count as read when the session is resumed
// to implement the plan: the first edit of such a file goes through,
// while a file changed on disk since its read, and one never read, must
// still be read first.
func TestResumeKeepsWhatThePlanTurnRead(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		readCall := func(p string) fakemodel.ToolCall {
			return fakemodel.ToolCall{Name: "Read", Input: map[string]any{"file_path": p}}
		}
		w := newWorld(t, api,
			fakemodel.Reply{Name: "explore", When: fakemodel.Match{LastUser: "rename the greeting"},
				ToolCalls: []fakemodel.ToolCall{readCall("main.go"), readCall("util.go")}},
			writePlan(fakemodel.Match{ToolResult: "MAIN-MARK"}),
			exitPlan,
			fakemodel.Reply{Name: "implement", When: fakemodel.Match{LastUser: "approved your plan"}, ToolCalls: []fakemodel.ToolCall{
				editCall("main.go", "hello", "howdy"),
				editCall("util.go", "hello", "howdy"),
				editCall("never.go", "hello", "howdy"),
			}},
			fakemodel.Reply{Name: "done", When: fakemodel.Match{Func: func(r *fakemodel.Request) bool {
				return len(r.LastUser().ToolResults) == 3
			}}, Text: "Implemented."},
		)
		w.write("main.go", "package main // MAIN-MARK\n\nconst greeting = \"hello\"\n")
		w.write("util.go", "package main\n\nconst other = \"hello\"\n")
		w.write("never.go", "package main\n\nconst never = \"hello\"\n")
		o := w.mustRun(0, "", "-p", "rename the greeting", "--permission-mode", "plan", "--output-format", "json")
		res := lastResult(t, o.stdout)
		if res["subtype"] != "plan_pending" {
			t.Fatalf("plan turn: %v", res)
		}
		// Someone changes util.go between the runs: what the model read
		// of it is out of date.
		w.write("util.go", "package main\n\n// changed by someone else\nconst other = \"hello\"\n")

		w.mustRun(0, "", "-p", "--resume", fmt.Sprint(res["session_id"]), "--approve-plan", "accept-edits", "--output-format", "json")
		got := w.lastResults(3)
		if failed(got[0]) || !strings.Contains(w.read("main.go"), "howdy") {
			t.Errorf("the edit of a file the plan turn read was refused: %q", got[0].Content)
		}
		if !failed(got[1]) || !strings.Contains(got[1].Content, "changed on disk") || strings.Contains(w.read("util.go"), "howdy") {
			t.Errorf("a file changed since its read was edited: %q", got[1].Content)
		}
		if !failed(got[2]) || !strings.Contains(got[2].Content, "has not been read") || strings.Contains(w.read("never.go"), "howdy") {
			t.Errorf("a file never read was edited: %q", got[2].Content)
		}
		w.allUsed()
	})
}
