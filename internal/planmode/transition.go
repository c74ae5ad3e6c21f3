package planmode

import (
	"errors"
	"fmt"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/permission"
)

// Via names the path a mode change came through.
type Via string

// The paths a mode change can take. Every one of them ends in SetMode.
const (
	ViaTool     Via = "tool"     // EnterPlanMode
	ViaApproval Via = "approval" // an approved plan
	ViaFlag     Via = "flag"     // --permission-mode at start
	ViaControl  Via = "control"  // stream-json set_permission_mode
	ViaTUI      Via = "tui"      // Shift+Tab
	ViaSlash    Via = "slash"    // /plan
	ViaSDK      Via = "sdk"      // the Go SDK
	ViaACP      Via = "acp"      // an editor, over the Agent Client Protocol
	ViaResume   Via = "resume"   // --approve-plan on resume
	ViaSettings Via = "settings" // permissions.defaultMode at start
	ViaTeam     Via = "team"     // a teammate that must plan first starts planning
	ViaRewind   Via = "rewind"   // a rewind: the mode its turn was sent in, or back to a plan's approval
	ViaReturn   Via = "return"   // planMode.returnAfterImplementation, as an implementation ends
)

// Change describes a mode change that happened, or was refused.
type Change struct {
	From, To permission.Mode
	Via      Via
	// Asked is the mode asked for when the ceiling gave To instead
	// (Limited); otherwise it is To.
	Asked   permission.Mode
	Limited bool
	// Refused says the transition's guard turned the change down, and
	// Reason why.
	Refused bool
	Reason  string
}

// Changed reports whether the mode actually changed.
func (c Change) Changed() bool { return c.From != c.To }

// SetMode is the one transition function: every mode change, whatever
// path it takes, passes through it. Entering plan mode remembers the mode
// it came from and schedules the plan-mode reminder; leaving it clears
// that memory and schedules the exit reminder. It emits ModeChanged and,
// on entry, PlanModeEntered with the plan file's path.
//
// Its guard (see guard): bypassPermissions is entered only when the
// command line allowed it (--dangerously-skip-permissions, or
// --permission-mode bypassPermissions), and never from a settings file.
// No control message, approval or resumed state gets past it; a refused
// change leaves the mode as it was and says so in a notice.
//
// A session with a ceiling (a teammate: its lead's mode) never gets a
// freer mode than the ceiling, whatever path the change took: it gets the
// ceiling instead, and a notice says so.
func (s *Session) SetMode(to permission.Mode, via Via) Change {
	ceiling := s.ceiling()
	s.mu.Lock()
	ch, events := s.setModeLocked(to, via, ceiling)
	emit := s.emit
	s.mu.Unlock()
	for _, e := range events {
		emit(e)
	}
	return ch
}

func (s *Session) setModeLocked(to permission.Mode, via Via, ceiling permission.Mode) (Change, []event.Event) {
	from := s.st.Mode
	if err := s.guard(to, via); err != nil {
		return Change{From: from, To: from, Via: via, Asked: to, Refused: true, Reason: err.Error()}, []event.Event{event.Notice{Level: "warning",
			Text: err.Error() + "; the mode stays " + string(from)}}
	}
	ch := Change{From: from, To: to, Via: via, Asked: to}
	var events []event.Event
	if ceiling != "" && to.Freer(ceiling) {
		ch.To, ch.Limited = ceiling, true
		to = ceiling
		events = append(events, event.Notice{Level: "warning", Text: fmt.Sprintf(
			"%s was asked for, but a teammate works at most in %s, the freest mode its lead allows; it is in %s", ch.Asked, ceiling, ceiling)})
	}
	if from == to {
		return ch, events
	}
	switch {
	case to == permission.ModePlan:
		s.st.PrePlanMode = from
		s.st.NeedsExitReminder = false
		s.st.Reminders = Tracker{}
		s.st.Phase = PhaseExplore
	case from == permission.ModePlan:
		s.st.PrePlanMode = ""
		s.st.NeedsExitReminder = true
		s.st.HasExitedPlanMode = true
		s.st.Reminders = Tracker{}
		s.st.Phase = ""
	}
	s.st.Mode = to
	s.changed()
	events = append(events, event.ModeChanged{From: string(from), To: string(to), Via: string(via)})
	if to == permission.ModePlan {
		path := s.planFileLocked("")
		_, exists := s.readPlanLocked("")
		events = append(events, event.PlanModeEntered{PlanFile: path, PlanExists: exists, Via: string(via)})
	}
	return ch, events
}

// guard says why the mode may not change to m by way of via, or nil: a
// name that is no mode is refused; bypassPermissions needs the command
// line's permission, and a settings file never turns it on (a repository's
// settings are files like any other; the user says so on the command
// line).
func (s *Session) guard(m permission.Mode, via Via) error {
	if _, err := permission.ParseMode(string(m)); err != nil {
		return err
	}
	if m != permission.ModeBypass {
		return nil
	}
	if via == ViaSettings {
		return errors.New("bypassPermissions is never turned on by a settings file; start ponder with --dangerously-skip-permissions for that")
	}
	if !s.cfg.BypassAllowed {
		return errors.New("bypassPermissions needs --dangerously-skip-permissions on the command line")
	}
	return nil
}

// ceiling is the freest mode the session may be in, or "" for no limit.
func (s *Session) ceiling() permission.Mode {
	if s.cfg.Ceiling == nil {
		return ""
	}
	return s.cfg.Ceiling()
}

// Allows says why SetMode(m, via) would be refused, or nil, without
// changing anything.
func (s *Session) Allows(m permission.Mode, via Via) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.guard(m, via)
}

// NextMode is the mode Shift+Tab moves to from the current one: default,
// acceptEdits, plan, then bypassPermissions when it was allowed at start,
// and round again.
func (s *Session) NextMode() permission.Mode {
	cycle := []permission.Mode{permission.ModeDefault, permission.ModeAcceptEdits, permission.ModePlan}
	if s.cfg.BypassAllowed {
		cycle = append(cycle, permission.ModeBypass)
	}
	cur := s.Mode()
	for i, m := range cycle {
		if m == cur {
			return cycle[(i+1)%len(cycle)]
		}
	}
	return permission.ModeDefault
}
