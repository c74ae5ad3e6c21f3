package planmode

import (
	"github.com/ponder-agent/ponder/internal/permission"
)

// Reminder kinds, as recorded on the blocks that carry them.
const (
	KindPlanMode          = "plan_mode"
	KindPlanModeReentry   = "plan_mode_reentry"
	KindPlanModeExit      = "plan_mode_exit"
	KindPlanFileReference = "plan_file_reference"
)

// Reminder is text ponder attaches to a user message for the model, as a
// system-reminder block. Reminders travel with the conversation rather than
// in the system prompt, so the cached prompt prefix never changes.
type Reminder struct {
	Kind string
	Text string
}

// Tracker schedules plan-mode reminders for one conversation: a reminder
// is due on the first request in plan mode, then once at least
// ReminderTurns human turns have passed since the last one. Tool results
// and messages ponder adds do not count as human turns.
type Tracker struct {
	// Shown says a reminder was attached since plan mode was entered.
	Shown bool `json:"shown,omitempty"`
	// TurnsSince counts human turns since the last reminder.
	TurnsSince int `json:"turns_since,omitempty"`
	// Count counts reminders since plan mode was last left; every
	// FullReminderEvery-th one, starting with the first, is the full one.
	Count int `json:"count,omitempty"`
}

// NoteHumanTurn records that the user sent a message.
func (t *Tracker) NoteHumanTurn() {
	if t.Shown {
		t.TurnsSince++
	}
}

// due reports whether a reminder is due, and if so counts it and says
// whether it is the full one.
func (t *Tracker) due(every, fullEvery int) (due, full bool) {
	if t.Shown && t.TurnsSince < every {
		return false, false
	}
	t.Shown = true
	t.TurnsSince = 0
	t.Count++
	return true, (t.Count-1)%fullEvery == 0
}

// NoteHumanTurn records that the user sent a message to the main
// conversation.
func (s *Session) NoteHumanTurn() {
	s.mu.Lock()
	s.st.Reminders.NoteHumanTurn()
	s.changed()
	s.mu.Unlock()
}

// Reminders returns what the main conversation's next request must carry:
// the exit reminder once after plan mode was left (by any path), and in
// plan mode the re-entry reminder when a plan survives from an earlier
// round, followed by the plan-mode reminder when one is due.
func (s *Session) Reminders() []Reminder {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Reminder
	if s.st.NeedsExitReminder {
		s.st.NeedsExitReminder = false
		s.changed()
		if s.st.Mode != permission.ModePlan {
			path := s.planFileLocked("")
			_, exists := s.readPlanLocked("")
			out = append(out, Reminder{Kind: KindPlanModeExit, Text: render("exit", s.data(path, exists))})
		}
	}
	if s.st.Mode != permission.ModePlan {
		return out
	}
	due, full := s.st.Reminders.due(s.cfg.ReminderTurns, s.cfg.FullReminderEvery)
	if !due {
		return out
	}
	s.changed()
	path := s.planFileLocked("")
	_, exists := s.readPlanLocked("")
	if s.st.HasExitedPlanMode && exists {
		s.st.HasExitedPlanMode = false
		out = append(out, Reminder{Kind: KindPlanModeReentry, Text: render("reentry", s.data(path, exists))})
	}
	name := "sparse"
	if full {
		name = "full"
	}
	return append(out, Reminder{Kind: KindPlanMode, Text: render(name, s.data(path, exists))})
}

// SubagentReminders returns what a subagent's next request must carry in
// plan mode: the subagent variant of the plan-mode reminder, scheduled by
// the agent's own tracker.
func (s *Session) SubagentReminders(agentID string, t *Tracker) []Reminder {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st.Mode != permission.ModePlan {
		return nil
	}
	if due, _ := t.due(s.cfg.ReminderTurns, s.cfg.FullReminderEvery); !due {
		return nil
	}
	path := s.planFileLocked(agentID)
	_, exists := s.readPlanLocked(agentID)
	return []Reminder{{Kind: KindPlanMode, Text: render("subagent", s.data(path, exists))}}
}

// PlanReference re-injects the plan after the conversation was compacted,
// so the model keeps it in view. It returns false when there is no plan.
func (s *Session) PlanReference() (Reminder, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	plan, ok := s.readPlanLocked("")
	if !ok || plan == "" {
		return Reminder{}, false
	}
	d := s.data(s.planFileLocked(""), true)
	d.Plan = plan
	return Reminder{Kind: KindPlanFileReference, Text: render("reference", d)}, true
}

// RestartReminders makes the next plan-mode reminder due at once, and the
// full one, as after compaction dropped the earlier ones.
func (s *Session) RestartReminders() {
	s.mu.Lock()
	s.st.Reminders = Tracker{}
	s.changed()
	s.mu.Unlock()
}
