package app

import (
	"fmt"

	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
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
// one settled at start, for any other session none ("").
func (a *App) modeCeiling() permission.Mode {
	t := a.opts.Team
	switch {
	case !a.opts.isTeammate():
		return ""
	case t.leadMode != nil:
		return leadCeiling(t.leadMode())
	}
	return permission.Mode(t.LeadMode)
}

// holdTeammates brings the teammates running in this process down to the
// lead's mode when the lead's changed to one stricter than theirs: the
// user who makes the lead ask before edits makes its teammates ask too.
// (A teammate process keeps the ceiling it was started with.)
func (a *App) holdTeammates() {
	l := a.lead
	if l == nil {
		return
	}
	limit := leadCeiling(a.plan.Mode())
	l.mu.Lock()
	mates := make([]*App, 0, len(l.mates))
	for _, r := range l.mates {
		mates = append(mates, r.app)
	}
	l.mu.Unlock()
	for _, m := range mates {
		if m.plan.Mode().Freer(limit) {
			m.plan.SetMode(limit, planmode.ViaTeam)
		}
	}
}
