package e2e

import (
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// The interface's everyday views: the change each edit made, /diff.

func TestInterfaceShowsTheChangeOfEachEditAndTheSessionDiff(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, writePlan(fakemodel.Match{LastUser: "add a greeting"}), exitPlan, implement("approved your plan"), finished)
		term := w.terminal("--permission-mode", "plan")
		term.waitFor("plan mode", func(s string) bool { return strings.Contains(statusLine(s), "plan mode") })
		term.typeText("add a greeting")
		term.send("Enter")
		term.waitText("Ready to code?")
		term.send("Enter") // yes, and accept edits
		s := term.waitText("Implemented the plan.")
		if !strings.Contains(s, "Created file, 1 line") || !strings.Contains(s, "+hello") || !strings.Contains(s, "@@ -0,0 +1 @@") {
			t.Fatalf("the implementation's write shows no change:\n%s", s)
		}
		term.typeText("/diff")
		term.send("Enter")
		s = term.waitText("Changes this session (1 file)")
		if !strings.Contains(s, "hello.txt +1 −0") {
			t.Fatalf("/diff:\n%s", s)
		}
		w.allUsed()
	})
}
