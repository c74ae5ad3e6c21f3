package acp

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// An approved plan's steps reach the editor as its plan at once, and the
// report of the implementation as text.
func TestApprovedPlanStepsBecomeThePlanUpdate(t *testing.T) {
	base := t.TempDir()
	plan := filepath.Join(base, "config", "plans", "acp-plan.md")
	r := newRig(t, base, []fakemodel.Reply{
		{Name: "plan", When: fakemodel.Match{LastUser: "greet"},
			ToolCalls: []fakemodel.ToolCall{{ID: "p1", Name: "Write", Input: map[string]any{"file_path": plan,
				"content": "# Greet\n\n## Implementation\n\n1. Write a greeting\n2. Check it\n"}}}},
		{Name: "exit", When: fakemodel.Match{ToolResult: "acp-plan.md"},
			ToolCalls: []fakemodel.ToolCall{{ID: "x1", Name: "ExitPlanMode", Input: map[string]any{}}}},
		{Name: "done", When: fakemodel.Match{ToolResult: "approved"}, Text: "Done."},
	})
	r.client.answer = pick("accept-edits")
	_, sess := r.start()
	if _, err := r.conn.SetSessionMode(r.ctx(), sdk.SetSessionModeRequest{SessionId: sess.SessionId, ModeId: "plan"}); err != nil {
		t.Fatal(err)
	}
	r.prompt(sess.SessionId, "greet")
	c := r.client
	c.mu.Lock()
	defer c.mu.Unlock()
	var entries []string
	for _, u := range c.updates {
		if p := u.Update.Plan; p != nil {
			entries = entries[:0]
			for _, e := range p.Entries {
				entries = append(entries, e.Content+":"+string(e.Status))
			}
		}
	}
	if !slices.Equal(entries, []string{"Write a greeting:pending", "Check it:pending"}) {
		t.Fatalf("plan entries %v", entries)
	}
	if !strings.Contains(c.agentText(), "Plan check:") {
		t.Errorf("no report in %q", c.agentText())
	}
}
