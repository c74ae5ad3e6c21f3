package headless

import (
	"testing"

	"github.com/ponder-agent/ponder/event"
)

// A question about a call names the tool in "tool", as events do, and in
// "tool_name" as before.
func TestControlRequestNamesTheTool(t *testing.T) {
	req := controlRequest(event.Question{ID: "q1", Kind: event.AskToolUse, Tool: "mcp__notes__purge"})["request"].(map[string]any)
	if req["tool"] != "mcp__notes__purge" || req["tool_name"] != "mcp__notes__purge" {
		t.Errorf("request %v", req)
	}
}
