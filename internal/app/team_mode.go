package app

import (
	"context"
	"fmt"
	"sort"

	"github.com/ponder-agent/ponder/event"

	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/team"
	"github.com/ponder-agent/ponder/internal/team/mailbox"
)

// A teammate never works in a freer mode than its lead: the lead's model
// picks the teammate's mode and answers its plans, so a hostile model
// would otherwise start a teammate in acceptEdits to write what the
// lead's own mode asks about. The rule is held in three places:
//
//   - the lead gives a teammate at most its own mode when it starts it
//     (spawnMode) and when it approves its plan (answerTeammate);
//   - every teammate has a ceiling in its plan-mode state machine
//     (planmode.Config.Ceiling), so that no path into a mode (its
//     settings, an approval that came through the mailbox, a resumed
//     transcript) gets it further: a forged message cannot either;
//   - a teammate in the lead's process reads its lead's mode at each
//     change; a teammate process gets the lead's mode on its command line
//     (--lead-mode) and keeps it in its record for when it is started
//     again.

// leadCeiling is the freest mode a teammate of a lead in mode lead may
// enter. A lead in plan mode changes nothing yet; its teammates start
// planning, and an approval the user gives them while it plans lets them
// implement asking first (default), never more.
func leadCeiling(lead permission.Mode) permission.Mode {
	if lead == permission.ModePlan {
		return permission.ModeDefault
	}
	return lead
}

// spawnMode is the mode a teammate started by a lead in mode lead starts
// in, given the mode asked for ("" leaves it to the teammate's settings,
// which its ceiling holds). A teammate that must plan first is in plan
// mode until its plan is approved, and mode is the one it implements in.
// A lead in plan mode starts every teammate in plan mode, also one it
// starts again whose resumed session was in another mode. note tells the
// lead's model when it got less than it asked for.
func spawnMode(asked string, lead permission.Mode, planRequired bool) (mode, note string) {
	if lead == permission.ModePlan {
		note = " It starts in plan mode, like you: a teammate never works in a freer mode than its lead."
		if planRequired {
			note += " Once its plan is approved it implements in default mode at most, while you plan."
		}
		return string(permission.ModePlan), note
	}
	if asked == "" {
		return "", ""
	}
	m := permission.Mode(asked).Within(lead)
	if string(m) == asked {
		return asked, ""
	}
	what := "works"
	if planRequired {
		what = "implements its approved plan"
	}
	return string(m), fmt.Sprintf(" It %s in %s mode, not %s as asked: a teammate never works in a freer mode than its lead, and you are in %s mode.", what, m, asked, lead)
}

// teammateCeiling settles the freest mode a teammate may enter, once, at
// start (TeamOptions.LeadMode): the lead's mode it was started with;
// else, for a teammate started by hand, the mode its own command line or
// settings give it; else the one its record kept from its first start;
// else default. A lead in plan mode lets its teammates implement in
// default at most.
func teammateCeiling(opts *Options, cfg *config.Config, recorded string, resuming bool) (permission.Mode, error) {
	t := opts.Team
	name := t.LeadMode
	switch {
	case name != "":
	case opts.Mode != "":
		name = opts.Mode
	case resuming && recorded != "":
		name = recorded
	default:
		name = config.Str(cfg.Settings.Permissions.DefaultMode, string(permission.ModeDefault))
	}
	m, err := permission.ParseMode(name)
	if err != nil {
		return "", &UsageError{Msg: "the lead's mode: " + err.Error()}
	}
	return leadCeiling(m), nil
}

// modeCeiling is the freest mode this session may enter: for a teammate
// in its lead's process the lead's mode now, for any other teammate the
// one settled at start or lowered since, for any other session none ("").
func (a *App) modeCeiling() permission.Mode {
	t := a.opts.Team
	switch {
	case !a.opts.isTeammate():
		return ""
	case t.leadMode != nil:
		return leadCeiling(t.leadMode())
	case a.mate != nil:
		// Lowered since the start by the lead's mode_limit messages.
		a.mate.mu.Lock()
		defer a.mate.mu.Unlock()
		return a.mate.ceiling
	}
	return permission.Mode(t.LeadMode)
}

// holdTeammates brings the teammates down to the lead's mode when the
// lead's changed to one stricter than theirs: the user who makes the lead
// ask before edits makes its teammates ask too. A teammate in this
// process is moved at once; every other teammate the lead knows of is
// sent a mode_limit message, which it applies between turns.
func (a *App) holdTeammates() {
	l := a.lead
	if l == nil {
		return
	}
	limit := leadCeiling(a.plan.Mode())
	l.mu.Lock()
	lowered := l.limit != "" && l.limit.Freer(limit)
	l.limit = limit
	mates := make([]*App, 0, len(l.mates))
	for _, r := range l.mates {
		mates = append(mates, r.app)
	}
	var others []string
	for name := range l.states {
		if _, in := l.mates[name]; !in {
			others = append(others, name)
		}
	}
	l.mu.Unlock()
	for _, m := range mates {
		if m.plan.Mode().Freer(limit) {
			m.plan.SetMode(limit, planmode.ViaTeam)
		}
	}
	if !lowered {
		return
	}
	sort.Strings(others)
	for _, name := range others {
		msg, err := mailbox.NewMessage(l.m.team, team.LeadName, name, mailbox.TypeModeLimit, mailbox.ModeLimit{Mode: string(limit)})
		if err == nil {
			err = a.sendTeam(context.Background(), l.m, msg, "")
		}
		if err != nil {
			a.emit(event.Notice{Level: "warning", Text: fmt.Sprintf("teammate %s was not told to work in %s at most: %v", name, limit, err)})
		}
	}
}

// applyModeLimit lowers the teammate's ceiling to what a mode_limit
// message says, never raises it, and brings its mode down to it.
func (a *App) applyModeLimit(msg mailbox.Message) {
	s := a.mate
	var ml mailbox.ModeLimit
	err := msg.Decode(mailbox.TypeModeLimit, &ml)
	m, perr := permission.ParseMode(ml.Mode)
	if err == nil {
		err = perr
	}
	if err != nil {
		a.logTeam(teamRecord{Event: "ignored", Type: string(msg.Type), ID: msg.ID, From: msg.From, Reason: err.Error()})
		return
	}
	limit := leadCeiling(m)
	s.mu.Lock()
	lowered := s.ceiling.Freer(limit)
	if lowered {
		s.ceiling, s.rec.LeadMode = limit, string(limit)
	}
	rec := s.rec
	s.mu.Unlock()
	if !lowered {
		return
	}
	_ = rec.Save(a.cfg.ConfigDir)
	a.emit(event.Notice{Level: "info", Text: fmt.Sprintf("The lead works in a stricter mode now: this teammate works in %s at most.", limit)})
	if a.plan.Mode().Freer(limit) {
		a.plan.SetMode(limit, planmode.ViaTeam)
	}
}
