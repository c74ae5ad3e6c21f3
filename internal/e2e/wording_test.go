package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// Every stream-json event about a tool names it in "tool": those of a
// call that ran (which keep "name" too) and of a refused one.
func TestStreamJSONEventsNameTheTool(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, callsThenDone("look around", []fakemodel.ToolCall{
			{Name: "Read", Input: map[string]any{"file_path": "main.go"}},
			writeCall("main.go", "changed"),
		})...)
		w.write("main.go", "package main\n")
		o := w.mustRun(0, "", "-p", "look around", "--permission-mode", "plan", "--output-format", "stream-json", "--verbose")
		seen := map[string]bool{}
		for _, l := range lines(t, o.stdout) {
			kind := fmt.Sprint(l["event"])
			switch kind {
			case "tool_started", "tool_finished", "tool_refused":
				seen[kind] = true
				if l["tool"] != "Read" && l["tool"] != "Write" {
					t.Errorf("%s without the tool's name in tool: %v", kind, l)
				}
			}
		}
		if !seen["tool_started"] || !seen["tool_finished"] || !seen["tool_refused"] {
			t.Errorf("events seen: %v\n%s", seen, o.stdout)
		}
	})
}

// --rewind-to list tells the turn of a plan approved on resume for what it
// is (the plan's implementation, which a rewind makes pending again), not
// as a compacted one.
func TestRewindListNamesAnApprovalTurn(t *testing.T) {
	w := newWorld(t, "anthropic",
		writePlan(fakemodel.Match{LastUser: "add a greeting"}),
		exitPlan,
		implement("approved your plan"),
		finished,
	)
	o := w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--output-format", "json")
	id := fmt.Sprint(lastResult(t, o.stdout)["session_id"])
	w.mustRun(0, "", "-p", "--resume", id, "--approve-plan", "accept-edits")
	o = w.mustRun(0, "", "-p", "--resume", id, "--rewind-to", "list")
	if strings.Contains(o.stdout, "compacted") || !strings.Contains(o.stdout, "the approved plan's implementation, accept-edits") || !strings.Contains(o.stdout, "hello.txt") {
		t.Fatalf("turn list:\n%s", o.stdout)
	}
}
