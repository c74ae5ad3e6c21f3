package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/event"
)

// A teammate's questions name it: its plan is its, and so is a call it
// asks to make.
func TestTeammateDialogsNameTheTeammate(t *testing.T) {
	f := newFixture(t, false)
	f.ask(event.Question{Kind: event.AskPlanExit, AgentID: "teammate:alice", Plan: samplePlan, PlanFile: "/plans/alice.md",
		Options: []event.Option{{ID: event.OptionApprove, Label: "Yes, the teammate implements it in its own mode"}, {ID: event.OptionReject, Label: "No, tell it what to change"}}})
	s := f.screen()
	golden(t, "dialog-approval-teammate", s)
	if !strings.Contains(s, "Here is alice's plan") {
		t.Fatalf("screen:\n%s", s)
	}
	f.keys("esc")
	f.ask(event.Question{Kind: event.AskToolUse, AgentID: "teammate:alice", Tool: "Bash", Input: json.RawMessage(`{"command":"make"}`)})
	if s := f.screen(); !strings.Contains(s, "Allow this call by alice?") {
		t.Fatalf("screen:\n%s", s)
	}
}
