package app

import (
	"context"
	"fmt"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/team"
)

// This file is who answers a teammate's permission questions. A teammate
// in its lead's process puts them to whoever answers the lead's (its
// dialog, a stream-json host), named as the teammate's, so a teammate
// that implements in a mode that asks can be given its yes. A teammate
// process, or one whose lead has nobody to answer, has no answerer: its
// calls that need a yes are refused, and the lead is not offered an
// approval that would leave it there.

// teammateAnswerer is the lead's answerer for the teammates it starts in
// its process, or nil when nobody answers the lead's questions.
func (a *App) teammateAnswerer() permission.Asker {
	if !a.opts.Interactive && a.opts.Asker == nil {
		return nil
	}
	return a.asker
}

// askLead puts a teammate's permission question to its lead's answerer,
// marked with the teammate's name ("teammate:NAME").
func (a *App) askLead(ctx context.Context, q permission.Question) (permission.Answer, error) {
	t := a.opts.Team
	if t == nil || t.leadAsk == nil {
		if s := a.mate; s != nil {
			s.mu.Lock()
			s.unasked++
			s.mu.Unlock()
		}
		return permission.Answer{}, permission.ErrNoAnswerer
	}
	q.AgentID = "teammate:" + t.Name
	return t.leadAsk.Ask(ctx, q)
}

// teammateCanAsk reports whether teammate name's permission questions
// reach someone: it runs in this lead's process and the lead has an
// answerer.
func (a *App) teammateCanAsk(name string) bool {
	l := a.lead
	l.mu.Lock()
	mr, ok := l.mates[name]
	l.mu.Unlock()
	return ok && mr.app.opts.Team != nil && mr.app.opts.Team.leadAsk != nil
}

// teammateOptionsFor are the answers offered for teammate name's plan:
// those of teammateOptions, less any that would leave the teammate
// implementing in default mode when its questions reach nobody (every
// edit would be refused).
func (a *App) teammateOptionsFor(name string) []event.Option {
	opts := a.teammateOptions()
	if a.teammateCanAsk(name) {
		return opts
	}
	limit := leadCeiling(a.plan.Mode())
	var out []event.Option
	for _, o := range opts {
		mode, _ := team.ModeOfOption(o.ID)
		if mode == string(permission.ModeDefault) || (mode == "" && o.ID != event.OptionReject && limit == permission.ModeDefault) {
			continue
		}
		out = append(out, o)
	}
	return out
}

// takeUnasked returns and clears the count of calls refused for want of
// an answerer since the last idle message.
func (s *mateState) takeUnasked() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.unasked
	s.unasked = 0
	return n
}

// withUnasked adds to a teammate's idle summary that calls of its were
// refused because nobody could say yes to them, so its lead does not see
// only "idle" when the work could not be done.
func withUnasked(summary string, n int) string {
	if n == 0 {
		return summary
	}
	note := fmt.Sprintf("%d %s refused: %s a yes, and nobody can give one to this teammate (approve its plan in acceptEdits, or start it with the rules it needs)",
		n, plural(n, "call was", "calls were"), plural(n, "it needed", "they needed"))
	if summary == "" {
		return note
	}
	return summary + " — " + note
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
