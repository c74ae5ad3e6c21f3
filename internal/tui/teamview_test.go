package tui

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
)

func shiftKey(code rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: code, Mod: tea.ModShift} }

// Shift+Down and Shift+Up go round the lead and its teammates by name;
// Esc comes back to the lead. Without teammates, they say why nothing
// happens.
func TestTeamCycleOrder(t *testing.T) {
	f := newFixture(t, false)
	f.m.Update(shiftKey(tea.KeyDown))
	if f.m.team != nil || !strings.Contains(f.m.hint, "No teammates") {
		t.Fatalf("without teammates: view %v, hint %q", f.m.team, f.m.hint)
	}
	for _, n := range []string{"bob", "alice"} {
		f.m.Update(eventMsg{event.TeammateState{Team: "core", Name: n, State: event.TeammateWorking}})
	}
	shown := func() string {
		if f.m.team == nil {
			return "lead"
		}
		return f.m.team.name
	}
	var got []string
	for range 3 {
		f.m.Update(shiftKey(tea.KeyDown))
		got = append(got, shown())
	}
	f.m.Update(shiftKey(tea.KeyUp))
	got = append(got, shown())
	f.m.Update(keyMsg("esc"))
	got = append(got, shown())
	if strings.Join(got, " ") != "alice bob lead bob lead" {
		t.Errorf("shown in turn: %v", got)
	}
}

// teammateHistory is a teammate's conversation so far: it planned, and
// its plan went to the lead.
func teammateHistory() []event.Message {
	input, _ := json.Marshal(map[string]any{"file_path": "~/.ponder/plans/bob-plan.md", "content": "# Plan"})
	return []event.Message{
		{Role: "user", Content: []event.Block{{Type: event.BlockText, Text: "Add a greeting to the README."}}},
		{Role: "assistant", Content: []event.Block{
			{Type: event.BlockText, Text: "I will write the plan first."},
			{Type: event.BlockToolUse, ID: "t1", Name: "Write", Input: input},
		}},
		{Role: "user", Content: []event.Block{{Type: event.BlockToolResult, ToolUseID: "t1", Content: "Created the plan file"}}},
		{Role: "assistant", Content: []event.Block{
			{Type: event.BlockToolUse, ID: "t2", Name: "ExitPlanMode", Input: json.RawMessage(`{}`)},
		}},
		{Role: "user", Content: []event.Block{{Type: event.BlockToolResult, ToolUseID: "t2", Content: "Your plan was sent to the team lead (lead) for approval."}}},
	}
}

// The teammate view: the teammate's conversation instead of the lead's,
// its text streaming in and its calls as they run, a line naming it with
// its mode and state, and the keys in the footer.
func TestTeammateViewScreen(t *testing.T) {
	f := newFixture(t, false)
	f.m.Update(eventMsg{event.TeammateState{Team: "core", Name: "bob", State: event.TeammateWorking, SessionID: "s-bob"}})
	f.m.Update(eventMsg{event.TeammateState{Team: "core", Name: "bob", State: event.TeammateAwaitingApproval, RequestID: "r1"}})
	f.m.conv.add(&item{kind: itemUser, text: "The lead's own conversation."})
	if !strings.Contains(f.screen(), "shift+↓ teammates") {
		t.Errorf("the footer does not mention the teammates' key:\n%s", f.screen())
	}
	f.m.Update(shiftKey(tea.KeyDown))
	if f.m.team == nil || f.m.team.name != "bob" {
		t.Fatal("Shift+Down did not show bob")
	}
	gen := f.m.team.gen
	f.m.Update(teammateOpened{gen: gen, v: &app.TeammateView{Name: "bob", SessionID: "s-bob", History: teammateHistory(), Mode: event.ModePlan,
		Events: make(chan event.Event)}})
	bash, _ := json.Marshal(map[string]any{"command": "cat README.md"})
	for _, e := range []event.Event{
		event.TeamMessage{Team: "core", From: "lead", To: "bob", Type: "text", Text: "Keep it short."},
		event.AssistantMessage{Message: event.Message{Role: "assistant", Content: []event.Block{
			{Type: event.BlockText, Text: "Noted; checking the README again."},
			{Type: event.BlockToolUse, ID: "t3", Name: "Bash", Input: bash}}}},
		event.ToolStarted{ID: "t3", Name: "Bash", Input: bash},
		event.TextDelta{Text: "The README has"},
	} {
		f.m.Update(teammateEvent{gen: gen, e: e, ok: true})
	}
	// An event of a view closed since changes nothing.
	f.m.Update(teammateEvent{gen: gen - 1, e: event.TextDelta{Text: "STALE"}, ok: true})
	screen := f.screen()
	if strings.Contains(screen, "The lead's own conversation") || strings.Contains(screen, "STALE") {
		t.Errorf("the teammate view shows what is not the teammate's:\n%s", screen)
	}
	golden(t, "teammate-view", screen)

	f.m.Update(keyMsg("esc"))
	if f.m.team != nil || !strings.Contains(f.screen(), "The lead's own conversation") {
		t.Errorf("Esc did not come back to the lead:\n%s", f.screen())
	}
}

// A teammate process is shown from its transcript, read again as it
// grows; what the user sends shows until the transcript has it.
func TestTeammateProcessViewFollowsTranscript(t *testing.T) {
	f := newFixture(t, false)
	f.m.Update(eventMsg{event.TeammateState{Team: "core", Name: "carol", State: event.TeammateWorking}})
	f.m.Update(shiftKey(tea.KeyDown))
	gen := f.m.team.gen
	hist := teammateHistory()[:3]
	_, cmd := f.m.Update(teammateOpened{gen: gen, v: &app.TeammateView{Name: "carol", History: hist, Mode: event.ModeDefault}})
	if cmd == nil {
		t.Fatal("no refresh scheduled for a teammate process")
	}
	if !strings.Contains(f.screen(), "from its transcript") {
		t.Errorf("the view does not say it reads the transcript:\n%s", f.screen())
	}
	f.m.messageTeammate("Please hurry.")
	if !strings.Contains(f.screen(), "Please hurry.") {
		t.Errorf("the message sent does not show:\n%s", f.screen())
	}
	grown := append(hist, event.Message{Role: "user", Content: []event.Block{{Type: event.BlockText,
		Text: "<teammate-message from=\"lead\" type=\"text\">\nPlease hurry.\n</teammate-message>"}}},
		event.Message{Role: "assistant", Content: []event.Block{{Type: event.BlockText, Text: "Hurrying along."}}})
	f.m.Update(teammateRead{gen: gen, hist: grown, mode: event.ModeAcceptEdits})
	screen := f.screen()
	if !strings.Contains(screen, "Hurrying along.") || strings.Count(screen, "Please hurry.") != 1 || !strings.Contains(screen, "accept edits") {
		t.Errorf("the grown transcript is not shown once, with its mode:\n%s", screen)
	}
	if len(f.m.team.pending) != 0 {
		t.Errorf("still pending: %q", f.m.team.pending)
	}
}
