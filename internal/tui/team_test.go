package tui

import (
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/event"
)

// The interface shows teammates and their states: a notice on each
// change, a count in the status line with those awaiting approval, and
// the list /team gives.
func TestTeammatesOnScreen(t *testing.T) {
	f := newFixture(t, false)
	f.m.Update(eventMsg{event.TeammateState{Team: "core", Name: "alice", State: event.TeammateWorking, SessionID: "s-alice"}})
	f.m.Update(eventMsg{event.TeammateState{Team: "core", Name: "bob", State: event.TeammateWorking}})
	f.m.Update(eventMsg{event.TeammateState{Team: "core", Name: "alice", State: event.TeammateAwaitingApproval, RequestID: "r1"}})
	screen := f.screen()
	for _, want := range []string{"Teammate alice: awaiting approval.", "team: 2, 1 awaiti"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	f.run(f.m.command("/team"))
	screen = f.screen()
	if !strings.Contains(screen, "alice") || !strings.Contains(screen, "bob") || !strings.Contains(screen, "session s-alice") {
		t.Errorf("/team does not list the teammates:\n%s", screen)
	}
}
