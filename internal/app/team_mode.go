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
	c := leadCeiling(m)
	// A lead of the team that runs now holds the teammate too, even one
	// it did not start (team.LeadMode); read again once the teammate's
	// record is written (takeLeadMode).
	if lm, found, err := team.LoadLeadMode(cfg.ConfigDir, t.Team); err != nil {
		c = c.Within(permission.ModeDefault)
	} else if l, perr := permission.ParseMode(lm); found && perr == nil {
		c = c.Within(leadCeiling(l))
	}
	return c, nil
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

// holdTeammates brings the teammates down to the lead's mode: when the
// lead starts (Start calls it whatever its mode), and when its mode
// changed to one stricter than theirs. The user who makes the lead ask
// before edits makes its teammates ask too, and a lead in plan mode
// holds every member it knows, also one started by hand and already
// running. A teammate in this process is moved at once; every other
// teammate the lead knows of (its record, or what the lead heard of it)
// is sent a mode_limit message, which it applies between turns, and the
// lead's mode is published for members that join later (team.LeadMode).
func (a *App) holdTeammates() {
	l := a.lead
	if l == nil {
		return
	}
	mode := a.plan.Mode()
	limit := leadCeiling(mode)
	// Published before the members are listed: a member writes its
	// record before it reads this, so either it is listed or it reads.
	if err := team.SaveLeadMode(a.cfg.ConfigDir, l.m.team, string(mode)); err != nil {
		a.emit(event.Notice{Level: "warning", Text: "publishing the lead's mode to its team: " + err.Error()})
	}
	l.mu.Lock()
	first := l.limit == ""
	lowered := first || l.limit.Freer(limit)
	l.limit = limit
	mates := make([]*App, 0, len(l.mates))
	for _, r := range l.mates {
		mates = append(mates, r.app)
	}
	known := map[string]bool{}
	for name := range l.states {
		known[name] = true
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
	if first {
		// A lead that starts tells every member with a record that has
		// not stopped: one may be running, started by hand or by a
		// lead before this one.
		names, _ := team.ListMembers(a.cfg.ConfigDir, l.m.team)
		for _, name := range names {
			if rec, found, err := team.LoadRecord(a.cfg.ConfigDir, l.m.team, name); err == nil && found && rec.State != event.TeammateStopped {
				known[name] = true
			}
		}
	}
	l.mu.Lock()
	var others []string
	for name := range known {
		if _, in := l.mates[name]; !in {
			others = append(others, name)
		}
	}
	l.mu.Unlock()
	sort.Strings(others)
	for _, name := range others {
		msg, err := mailbox.NewMessage(l.m.team, team.LeadName, name, mailbox.TypeModeLimit, mailbox.ModeLimit{Mode: string(mode)})
		if err == nil {
			err = a.sendTeam(context.Background(), l.m, msg, "")
		}
		if err != nil {
			a.emit(event.Notice{Level: "warning", Text: fmt.Sprintf("teammate %s was not told to work in %s at most: %v", name, limit, err)})
		}
	}
}

// takeLeadMode holds a teammate that joins its team to the mode its
// lead published, if one runs (team.LeadMode), before its first turn:
// also a teammate started by hand, which no lead told anything.
func (a *App) takeLeadMode() {
	mode, found, err := team.LoadLeadMode(a.cfg.ConfigDir, a.mate.m.team)
	if err != nil {
		// Unreadable: the teammate cannot tell how free it may be, so
		// it plans.
		a.infos = append(a.infos, err.Error())
		mode, found = string(permission.ModePlan), true
	}
	if !found {
		return
	}
	m, err := permission.ParseMode(mode)
	if err != nil {
		m = permission.ModePlan
	}
	a.lowerCeiling(m, false)
}

// recordMateMode keeps the teammate's mode in its record, for a lead in
// plan mode to read before it sends it anything to act on.
func (a *App) recordMateMode(mode string) {
	s := a.mate
	if s == nil {
		return
	}
	_, _ = a.saveRecord(func(r *team.Record) { r.Mode = mode })
}

// teammateMode is the mode teammate name works in now, as the lead knows
// it: read from the session for a teammate in this process, else from
// its record; "" when the lead cannot tell.
func (a *App) teammateMode(name string) permission.Mode {
	l := a.lead
	l.mu.Lock()
	r, in := l.mates[name]
	l.mu.Unlock()
	if in {
		return r.app.plan.Mode()
	}
	return a.recordedMode(l.m.team, name)
}

// recordedMode is the mode teammate name of team last recorded, or ""
// when there is no record or it names none.
func (a *App) recordedMode(teamName, name string) permission.Mode {
	rec, found, err := team.LoadRecord(a.cfg.ConfigDir, teamName, name)
	if err != nil || !found {
		return ""
	}
	m, err := permission.ParseMode(rec.Mode)
	if err != nil {
		return ""
	}
	return m
}

// leadPlans says this teammate's lead is in plan mode now, as far as it
// can tell: for a teammate in the lead's process, the lead's mode; for
// another, the mode the lead published (team.LeadMode).
func (a *App) leadPlans() bool {
	if f := a.opts.Team.leadMode; f != nil {
		return f() == permission.ModePlan
	}
	mode, found, err := team.LoadLeadMode(a.cfg.ConfigDir, a.mate.m.team)
	return err != nil || (found && mode == string(permission.ModePlan))
}

// checkRelay refuses a teammate's message to another teammate that may
// write while the sender plans or their lead does: a teammate that must
// plan first (or a planning lead through it) would otherwise have a peer
// change files on its word before any plan is approved. Messages to the
// lead are not relays.
func (a *App) checkRelay(to string) error {
	leadPlans := a.leadPlans()
	if !leadPlans && a.plan.Mode() != permission.ModePlan {
		return nil
	}
	if m := a.recordedMode(a.mate.m.team, to); m == permission.ModePlan {
		return nil
	}
	if !leadPlans {
		return fmt.Errorf("not sent: you are in plan mode and %s does not plan, so your message could make it change files before your plan is approved. Message your lead, or teammates that plan", to)
	}
	return fmt.Errorf("not sent: your lead is in plan mode and %s does not plan, so your message could make it change files before the lead's plan is approved. Message the lead, or teammates that plan", to)
}

// checkPlanningSend refuses what a lead in plan mode would send a
// teammate to act on unless the teammate plans too: the lead changes
// nothing but its plan file, and a teammate that may write would change
// files on its word. This holds whether or not the teammate has read the
// lead's mode_limit yet.
func (a *App) checkPlanningSend(to string) error {
	if a.plan.Mode() != permission.ModePlan {
		return nil
	}
	m := a.teammateMode(to)
	if m == permission.ModePlan {
		return nil
	}
	how := "ponder cannot tell which mode it works in"
	if m != "" {
		how = fmt.Sprintf("it works in %s mode", m)
	}
	return fmt.Errorf("not sent: you are in plan mode and %s cannot be held to it (%s), so your message could make it change files before your plan is approved. Message only teammates that plan, or send this once your plan is approved", to, how)
}

// applyModeLimit lowers the teammate's ceiling to what a mode_limit
// message says, never raises it, and brings its mode down to it.
func (a *App) applyModeLimit(msg mailbox.Message) {
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
	a.lowerCeiling(m, true)
}

// lowerCeiling holds the teammate to what a lead in mode lead allows:
// its ceiling is lowered, never raised, and its mode brought down to it.
// notice tells the front ends (not before the session has started).
func (a *App) lowerCeiling(lead permission.Mode, notice bool) {
	s := a.mate
	limit := leadCeiling(lead)
	s.mu.Lock()
	lowered := s.ceiling == "" || s.ceiling.Freer(limit)
	if lowered {
		s.ceiling = limit
	}
	s.mu.Unlock()
	if !lowered {
		return
	}
	_, _ = a.saveRecord(func(r *team.Record) { r.LeadMode = string(limit) })
	if notice {
		a.emit(event.Notice{Level: "info", Text: fmt.Sprintf("The lead works in a stricter mode now: this teammate works in %s at most.", limit)})
	}
	if a.plan.Mode().Freer(limit) {
		a.plan.SetMode(limit, planmode.ViaTeam)
	}
}
