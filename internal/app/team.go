package app

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/session"
	"github.com/ponder-agent/ponder/internal/team"
	"github.com/ponder-agent/ponder/internal/team/mailbox"
)

// TeamOptions make a session a member of a team: its lead (Name is
// team.LeadName, the default) or a teammate.
type TeamOptions struct {
	// Team is the team's name.
	Team string
	// Name is this member's name; "" or "lead" for the lead.
	Name string
	// PlanModeRequired (teammates): the teammate starts in plan mode and
	// leaves it only with its lead's approval.
	PlanModeRequired bool
	// Mailbox replaces the team.mailbox setting ("files" or a NATS URL);
	// the lead hands its own to the teammates it starts.
	Mailbox string
	// LeadMode (teammates) is the mode of the lead that started the
	// teammate (--lead-mode): the teammate never enters a freer one.
	// "" for a teammate started by hand: its own starting mode, or the
	// one its record kept. Once the session is made it holds the
	// ceiling (see teammateCeiling).
	LeadMode string

	// leadMode, for a teammate in its lead's process, reads the lead's
	// mode at each change of the teammate's.
	leadMode func() permission.Mode
	// leadAsk, for a teammate in its lead's process whose lead has
	// someone to answer, puts the teammate's permission questions to
	// the lead's answerer (team_ask.go).
	leadAsk permission.Asker
}

// member is this session's place in a team: its mailbox, and the record
// of the messages it has applied.
type member struct {
	team, name string
	setting    string
	mb         mailbox.Mailbox
	seen       *mailbox.Seen
}

// isTeammate says the session is a teammate (not a lead, not alone).
func (o Options) isTeammate() bool {
	return o.Team != nil && o.Team.Name != "" && o.Team.Name != team.LeadName
}

// mailboxSetting is the mailbox the session's team uses: the option, else
// team.mailbox from settings that count (an untrusted project's does not).
func mailboxSetting(o *TeamOptions, cfg *config.Config) string {
	if o != nil && o.Mailbox != "" {
		return o.Mailbox
	}
	return config.Str(cfg.Settings.Team.Mailbox, mailbox.SettingFiles)
}

// prepareTeam checks the team options and, for a teammate started again,
// resumes the session its record names.
func prepareTeam(opts *Options, cfg *config.Config) error {
	t := opts.Team
	if t == nil {
		return nil
	}
	if t.Name == "" {
		t.Name = team.LeadName
	}
	if err := mailbox.ValidateName("team", t.Team); err != nil {
		return &UsageError{Msg: err.Error()}
	}
	if err := mailbox.ValidateName("member", t.Name); err != nil {
		return &UsageError{Msg: err.Error()}
	}
	if t.Name == team.LeadName && t.PlanModeRequired {
		return &UsageError{Msg: "plan mode required is for teammates, not the lead"}
	}
	if t.Name == team.LeadName {
		return nil
	}
	rec, found, err := team.LoadRecord(cfg.ConfigDir, t.Team, t.Name)
	if err != nil {
		return err
	}
	if found && opts.Resume == "" && !opts.Continue {
		opts.Resume = rec.SessionID
		t.PlanModeRequired = t.PlanModeRequired || rec.PlanModeRequired
	}
	resuming := found && opts.Resume == rec.SessionID
	opts.Tools = teammateTools(opts, rec.Tools, resuming)
	ceiling, err := teammateCeiling(opts, cfg, rec.LeadMode, resuming)
	if err != nil {
		return err
	}
	t.LeadMode = string(ceiling)
	return nil
}

// teammateTools settles the built-in tools a teammate has, like its
// ceiling: a teammate started by a lead (which gives --lead-mode) has the
// lead's --tools, so it is never handed a tool its lead lacks; one
// started by hand has its own --tools, else the ones its record kept
// from its first start; else every tool (nil).
func teammateTools(opts *Options, recorded *[]string, resuming bool) []string {
	if opts.Tools != nil || opts.Team.LeadMode != "" || !resuming || recorded == nil {
		return opts.Tools
	}
	return append([]string{}, (*recorded)...)
}

// joinTeam opens the session's mailbox as member name of team t.
func (a *App) joinTeam(t *TeamOptions) (*member, error) {
	setting := mailboxSetting(t, a.cfg)
	mb, err := mailbox.Open(setting, a.cfg.ConfigDir, t.Team)
	if err != nil {
		return nil, err
	}
	seen, err := mailbox.OpenSeen(a.cfg.ConfigDir, t.Team, t.Name)
	if err != nil {
		mb.Close()
		return nil, err
	}
	return &member{team: t.Team, name: t.Name, setting: setting, mb: mb, seen: seen}, nil
}

// close releases the mailbox.
func (m *member) close() {
	if m == nil {
		return
	}
	m.mb.Close()
	m.seen.Close()
}

// teamRecord is what the transcript keeps of a team message or state.
type teamRecord struct {
	Event     string `json:"event"` // sent, received, ignored, state
	Type      string `json:"type,omitempty"`
	ID        string `json:"id,omitempty"`
	From      string `json:"from,omitempty"`
	To        string `json:"to,omitempty"`
	RequestID string `json:"request_id,omitempty"`
	Approved  *bool  `json:"approved,omitempty"`
	By        string `json:"by,omitempty"`
	State     string `json:"state,omitempty"`
	Text      string `json:"text,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

// logTeam appends a team record to the transcript.
func (a *App) logTeam(r teamRecord) {
	data, err := json.Marshal(r)
	if err != nil || a.log == nil {
		return
	}
	_ = a.log.Append(session.Entry{Type: session.TypeTeam, Team: data})
}

// recordMessage logs and publishes a message this session sent or got.
func (a *App) recordMessage(how string, m mailbox.Message, by string) {
	r := teamRecord{Event: how, Type: string(m.Type), ID: m.ID, From: m.From, To: m.To, By: by}
	ev := event.TeamMessage{Team: m.Team, From: m.From, To: m.To, Type: string(m.Type), Sent: how == "sent"}
	switch m.Type {
	case mailbox.TypeText:
		var t mailbox.Text
		_ = m.Decode(mailbox.TypeText, &t)
		r.Text, ev.Text = t.Text, t.Text
	case mailbox.TypePlanApprovalRequest:
		if q, err := m.PlanApprovalRequest(); err == nil {
			r.RequestID, ev.RequestID, ev.Text = q.RequestID, q.RequestID, q.PlanContent
			r.Text = q.PlanPath
		}
	case mailbox.TypePlanApprovalResponse:
		if p, err := m.PlanApprovalResponse(); err == nil {
			approved := p.Approved
			r.RequestID, r.Approved, r.Text = p.RequestID, &approved, p.Feedback
			ev.RequestID, ev.Approved, ev.Text = p.RequestID, &approved, p.Feedback
		}
	case mailbox.TypeIdle:
		var i mailbox.Idle
		_ = m.Decode(mailbox.TypeIdle, &i)
		r.Text, ev.Text = i.Summary, i.Summary
	}
	a.logTeam(r)
	a.emit(ev)
}

// sendTeam sends a team message, bounded in time, and records it.
func (a *App) sendTeam(ctx context.Context, m *member, msg mailbox.Message, by string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := m.mb.Send(ctx, msg); err != nil {
		return fmt.Errorf("sending to %s: %w", msg.To, err)
	}
	a.recordMessage("sent", msg, by)
	return nil
}

// openTeam joins the team the options name, as its lead or a teammate.
func (a *App) openTeam() error {
	switch {
	case a.opts.Team == nil:
		return nil
	case a.opts.isTeammate():
		return a.openTeammate()
	}
	return a.openLead()
}
