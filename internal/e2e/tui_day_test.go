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

// A /plan <task> turn rewound comes back as the command, in the mode
// before it: sending it again plans again.
func TestInterfaceRewindOfAPlanTurnPlansAgain(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, writePlan(fakemodel.Match{LastUser: "add a greeting"}), exitPlan, implement("approved your plan"), finished,
			fakemodel.Reply{Name: "plan again", When: fakemodel.Match{LastUser: "add a greeting"}, Text: "Planning again."})
		term := w.terminal()
		term.waitFor("default mode", func(s string) bool { return strings.Contains(statusLine(s), "default") })
		term.typeText("/plan add a greeting")
		term.send("Enter")
		term.waitText("Ready to code?")
		term.send("Enter")
		term.waitText("Implemented the plan.")
		if w.read("hello.txt") != "hello\n" {
			t.Fatal("the implementation did not write")
		}
		term.typeText("/rewind")
		term.send("Enter")
		term.waitText("Rewind to before a turn")
		term.send("Enter")
		term.waitText("Restore files and conversation")
		term.send("Enter")
		s := term.waitText("> /plan add a greeting")
		if !strings.Contains(statusLine(s), "default") {
			t.Fatalf("the mode is not back to default:\n%s", s)
		}
		if w.read("hello.txt") != "<missing>" {
			t.Fatal("the rewind left the implementation's file")
		}
		term.send("Enter")
		s = term.waitText("Planning again.")
		if !strings.Contains(statusLine(s), "plan mode") {
			t.Fatalf("sending it again did not plan:\n%s", s)
		}
		w.allUsed()
	})
}

// /init looks at the repository and writes an AGENTS.md draft, whose
// write asks like any other edit.
func TestInterfaceInitDraftsAgentsFileWithApproval(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "look", When: fakemodel.Match{LastUser: "first draft of AGENTS.md"}, ToolCalls: []fakemodel.ToolCall{
				{Name: "Read", Input: map[string]any{"file_path": "README.md"}}}},
			fakemodel.Reply{Name: "draft", When: fakemodel.Match{ToolResult: "A greeter"}, ToolCalls: []fakemodel.ToolCall{
				{Name: "Write", Input: map[string]any{"file_path": "AGENTS.md", "content": "# Agents\n\nBuild with go build.\n"}}}},
			fakemodel.Reply{Name: "done", When: fakemodel.Match{ToolResult: "AGENTS.md ("}, Text: "Drafted AGENTS.md."},
		)
		w.write("README.md", "A greeter.\n")
		term := w.terminal()
		s := term.waitText("a coding agent that plans before it changes your code")
		if !strings.Contains(s, "Mode: default") || !strings.Contains(s, "shift+tab") {
			t.Fatalf("first screen:\n%s", s)
		}
		term.typeText("/init")
		term.send("Enter")
		s = term.waitText("Allow this change?")
		if !strings.Contains(s, "Write AGENTS.md") || !strings.Contains(s, "+# Agents") {
			t.Fatalf("the draft's write is not asked with its diff:\n%s", s)
		}
		if w.read("AGENTS.md") != "<missing>" {
			t.Fatal("AGENTS.md was written before the user said yes")
		}
		term.send("Enter")
		term.waitText("Drafted AGENTS.md.")
		if w.read("AGENTS.md") != "# Agents\n\nBuild with go build.\n" {
			t.Fatalf("AGENTS.md = %q", w.read("AGENTS.md"))
		}
		w.allUsed()
	})
}

// /init is ponder's own command headless runs know too: its prompt goes
// to the model, and the draft's write meets the mode's rules.
func TestHeadlessInitDraftsAgentsFile(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "draft", When: fakemodel.Match{LastUser: "first draft of AGENTS.md"}, ToolCalls: []fakemodel.ToolCall{
				{Name: "Write", Input: map[string]any{"file_path": "AGENTS.md", "content": "# Agents\n"}}}},
			fakemodel.Reply{Name: "done", When: fakemodel.Match{ToolResult: "AGENTS.md"}, Text: "Drafted."},
		)
		o := w.mustRun(0, "", "-p", "/init", "--output-format", "json")
		if res := lastResult(t, o.stdout); res["result"] != "Drafted." {
			t.Fatalf("result %v", res)
		}
		// Nobody was there to say yes: the write was refused.
		if w.read("AGENTS.md") != "<missing>" {
			t.Fatal("the draft was written without a yes")
		}
		w.srv.Add(
			fakemodel.Reply{Name: "draft again", When: fakemodel.Match{LastUser: "first draft of AGENTS.md"}, ToolCalls: []fakemodel.ToolCall{
				{Name: "Write", Input: map[string]any{"file_path": "AGENTS.md", "content": "# Agents\n"}}}},
			fakemodel.Reply{Name: "done again", When: fakemodel.Match{ToolResult: "AGENTS.md ("}, Text: "Drafted."},
		)
		// AGENTS.md decides what the model is told, so even accept-edits
		// asks; a rule of the user's lets it through.
		w.mustRun(0, "", "-p", "/init", "--allowedTools", "Edit(AGENTS.md)")
		if w.read("AGENTS.md") != "# Agents\n" {
			t.Fatalf("AGENTS.md = %q", w.read("AGENTS.md"))
		}
		w.allUsed()
	})
}
