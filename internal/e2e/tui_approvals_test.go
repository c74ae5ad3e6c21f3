package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// In the interface: comment on a line of the plan, get a revised plan with
// its changes marked, approve it with another model, and the rule the
// plan asked for, once given its own yes, lets its command run without a
// question while the edit still asks, showing its diff.
func TestInterfaceAnnotateReviseApproveWithModelAndGrant(t *testing.T) {
	w := newWorld(t, "anthropic",
		writePlanText("plan v1", planV1, fakemodel.Match{LastUser: "add a greeting"}),
		exitWithPerms("exit v1", fakemodel.Match{ToolResult: "Created"}),
		writePlanText("plan v2", planV2, fakemodel.Match{ToolResult: "Comment: say bonjour too"}),
		exitWithPerms("exit v2", fakemodel.Match{ToolResult: "Updated"}),
		fakemodel.Reply{Name: "implement", When: fakemodel.Match{Model: "impl-model", ToolResult: "granted these permissions"},
			ToolCalls: []fakemodel.ToolCall{
				{Name: "Bash", Input: map[string]any{"command": "touch built.txt"}},
				{Name: "Write", Input: map[string]any{"file_path": "hello.txt", "content": "hello\nbonjour\n"}},
			}},
		fakemodel.Reply{Name: "done", When: fakemodel.Match{Model: "impl-model", ToolResult: "hello.txt ("}, Text: "Implemented with both words."},
	)
	// The fast model doubles as the second choice of implementer.
	term := w.terminal("--permission-mode", "plan", "--explore-model", "impl-model")
	term.waitFor("plan mode", func(s string) bool { return strings.Contains(statusLine(s), "plan mode") })
	term.typeText("add a greeting")
	term.send("Enter")
	s := term.waitText("Ready to code?")
	for _, want := range []string{"✗ Bash(touch built.txt)", "✗ Bash(rm:*)", "needs its own yes: may write files anywhere"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the approval lacks %q:\n%s", want, s)
		}
	}
	// Commands are granted only on their own yes.
	term.send("g")
	s = term.waitText("✓ Bash(touch built.txt)")
	if !strings.Contains(s, "✓ Bash(rm:*)") {
		t.Fatalf("g did not grant every marked rule:\n%s", s)
	}
	term.send("g")
	term.waitText("✗ Bash(touch built.txt)")

	// Comment on line 3 and send the plan back.
	term.send("c")
	term.waitText("enter comment on it")
	term.send("Down")
	term.send("Down")
	term.send("Enter")
	term.waitText("Comment on line 3:")
	term.typeText("say bonjour too")
	term.send("Enter")
	term.waitText("✎ say bonjour too")
	term.send("Escape")
	term.waitText("send my comments")
	term.send("4")
	term.waitText("what should change in the plan?")
	term.send("Enter")

	// The revised plan comes back with its new lines marked.
	s = term.waitText("+ marks the 2 lines new since you sent the plan back")
	if !strings.Contains(s, "+ 3 1. Create hello.txt saying hello and bonjour.") {
		t.Fatalf("changed line not marked:\n%s", s)
	}
	// Pick the other model, then approve each edit.
	term.send("m")
	term.waitText("Implemented by impl-model")
	term.send("g")
	term.waitText("✓ Bash(touch built.txt)")
	term.send("2")

	// The granted command runs unasked; the edit asks, with its diff.
	s = term.waitText("Allow this change?")
	if !strings.Contains(s, "Write hello.txt") || !strings.Contains(s, "+bonjour") {
		t.Fatalf("the edit question lacks its diff:\n%s", s)
	}
	if _, err := os.Stat(filepath.Join(w.dir, "built.txt")); err != nil {
		t.Fatal("the granted command did not run before the edit was asked about")
	}
	term.send("Enter")
	term.waitText("Implemented with both words.")
	if w.read("hello.txt") != "hello\nbonjour\n" {
		t.Fatalf("hello.txt = %q", w.read("hello.txt"))
	}
	if !strings.Contains(statusLine(term.screen()), "impl-model") {
		t.Fatalf("the status bar does not name the implementing model:\n%s", term.screen())
	}
	w.allUsed()
}

// -r without an id opens the list of the project's sessions.
func TestInterfaceResumeWithoutAnIDOpensThePicker(t *testing.T) {
	w := newWorld(t, "anthropic", fakemodel.Reply{Times: -1, Text: "ok"})
	w.mustRun(0, "", "-p", "remember the blue door")
	term := w.terminal("-r")
	s := term.waitText("Resume a session")
	if !strings.Contains(s, "remember the blue door") {
		t.Fatalf("the picker does not list the earlier session:\n%s", s)
	}
}
