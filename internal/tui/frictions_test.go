package tui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ponder-agent/ponder/event"
)

func (f *fixture) feed(evs ...event.Event) {
	for _, e := range evs {
		f.m.Update(eventMsg{e})
	}
}

// An approval says once which mode is now on, and names the model and the
// grants.
func TestApprovalIsAnnouncedOnce(t *testing.T) {
	f := newFixture(t, false)
	f.feed(event.ModeChanged{From: "plan", To: "acceptEdits", Via: "approval"},
		event.PlanApproved{Option: "accept-edits", Mode: "acceptEdits", Model: "claude-opus-5", Granted: []string{"Bash(go test:*)"}})
	s := strings.Join(strings.Fields(f.screen()), " ")
	if strings.Count(s, "accept edits.") != 1 || strings.Contains(s, "Mode: accept edits") {
		t.Fatalf("duplicate notices:\n%s", s)
	}
	if !strings.Contains(s, "claude-opus-5 implements it") || !strings.Contains(s, "Granted for this session: Bash(go test:*)") {
		t.Fatalf("screen:\n%s", s)
	}
	// A mode change by other paths is still announced.
	f.feed(event.ModeChanged{From: "acceptEdits", To: "default", Via: "tui"})
	if !strings.Contains(f.screen(), "Mode: default") {
		t.Fatal("a Shift+Tab change is not announced")
	}
}

// A plan sent back is not a failure, and the notice says what went back.
func TestSentBackPlanIsNoFailure(t *testing.T) {
	f := newFixture(t, false)
	f.feed(event.ToolStarted{ID: "t1", Name: "ExitPlanMode", Input: json.RawMessage(`{}`)},
		event.ToolFinished{ID: "t1", Name: "ExitPlanMode", Content: "The user did not approve the plan", Summary: "sent back", IsError: true},
		event.PlanRejected{Annotations: []event.Annotation{{Line: 2, Comment: "x"}}})
	s := f.screen()
	if strings.Contains(s, "failed") || !strings.Contains(s, "ExitPlanMode() sent back") || !strings.Contains(s, "Plan sent back with 1 comment") {
		t.Fatalf("screen:\n%s", s)
	}
}

// ctrl+o shows results in full: a long refusal reason is wrapped, never
// cut at the screen's edge.
func TestFullResultsWrapLongLines(t *testing.T) {
	f := newFixture(t, false)
	reason := "The permission rule Bash(rm:*) (user settings) denies this command; " + strings.Repeat("every word of this reason matters ", 4) + "THE-END"
	f.feed(event.ToolRefused{ID: "t1", Tool: "Bash", Input: json.RawMessage(`{"command":"rm -rf x"}`), Reason: reason})
	f.keys("ctrl+o")
	if s := f.screen(); !strings.Contains(s, "THE-END") {
		t.Fatalf("the reason is cut:\n%s", s)
	}
}

// Time spent answering a dialog does not count as working.
func TestSpinnerDoesNotCountDialogTime(t *testing.T) {
	f := newFixture(t, false)
	start := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	now := start
	f.m.now = func() time.Time { return now }
	f.m.running, f.m.turnStart = true, start
	now = start.Add(5 * time.Second)
	res := f.ask(event.Question{Kind: event.AskEnterPlan})
	now = start.Add(65 * time.Second)
	if s := f.screen(); !strings.Contains(s, "Waiting for your answer") {
		t.Fatalf("screen:\n%s", s)
	}
	f.keys("1")
	<-res
	now = start.Add(67 * time.Second)
	if s := f.m.spinnerLine(80, false); !strings.Contains(s, "Working… 7s") {
		t.Fatalf("spinner %q counts the minute spent in the dialog", s)
	}
	_ = tea.KeyPressMsg{}
}

// A request typed in for the user says how to send it.
func TestPrefilledRequestSaysPressEnter(t *testing.T) {
	f := newFixture(t, false)
	f.m.prefill("Add a --shout flag")
	if s := f.screen(); !strings.Contains(s, "Press Enter to send") || !strings.Contains(s, "Add a --shout flag") {
		t.Fatalf("screen:\n%s", s)
	}
}

// Submitting a prompt brings a scrolled-up view back to the end.
func TestSubmittingScrollsToTheEnd(t *testing.T) {
	f := newFixture(t, false)
	for i := range 60 {
		f.feed(event.Notice{Level: "info", Text: "line " + strings.Repeat("x", i%3)})
	}
	f.keys("pgup", "pgup")
	if f.m.scroll == 0 {
		t.Fatal("pgup did not scroll")
	}
	f.typeText("hello")
	f.keys("enter")
	if f.m.scroll != 0 {
		t.Fatalf("still scrolled up by %d after submitting", f.m.scroll)
	}
}
