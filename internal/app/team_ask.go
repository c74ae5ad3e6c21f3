package app

import (
	"context"

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
