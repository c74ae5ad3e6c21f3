package tui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
)

// resumePicker lists this project's sessions to switch to.
type resumePicker struct {
	th       theme
	sessions []app.SessionInfo
	options  choice
	now      time.Time
}

// sessionsListed is the project's sessions, read for /resume.
type sessionsListed struct {
	list []app.SessionInfo
	err  error
}

// listSessions reads the sessions (every transcript) outside Update.
func (m *Model) listSessions() tea.Cmd {
	a := m.app
	return func() tea.Msg {
		list, err := a.Sessions()
		return sessionsListed{list, err}
	}
}

// showResumePicker offers the other sessions to switch to.
func (m *Model) showResumePicker(msg sessionsListed) tea.Cmd {
	if msg.err != nil {
		m.conv.notice("warning", "Cannot list sessions: "+msg.err.Error())
		return nil
	}
	var others []app.SessionInfo
	for _, s := range msg.list {
		if s.ID != m.app.ID() {
			others = append(others, s)
		}
	}
	if len(others) == 0 {
		m.conv.notice("info", "No other session in this directory yet.")
		return nil
	}
	if len(others) > 9 {
		others = others[:9]
	}
	p := &resumePicker{th: m.th, sessions: others, now: m.now()}
	for _, s := range others {
		p.options.labels = append(p.options.labels, fmt.Sprintf("%s  %s  %s", s.ID[:min(8, len(s.ID))], ago(p.now.Sub(s.Modified)), s.Title))
	}
	m.dialogs = append(m.dialogs, p)
	return nil
}

func (p *resumePicker) id() string           { return "" }
func (p *resumePicker) answer() event.Answer { return event.Answer{} }
func (p *resumePicker) chosen() string       { return p.sessions[p.options.selected].ID }

func (p *resumePicker) key(msg tea.Msg) (outcome, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return stay, nil
	}
	if k.String() == "esc" {
		return dismissed, nil
	}
	if p.options.key(k) {
		return answered, nil
	}
	return stay, nil
}

func (p *resumePicker) view(width, height int) string {
	body := p.options.view(p.th, max(20, width-4)) + "\n\n" + p.th.faint.Render("enter resume · esc cancel")
	return frame(p.th, "Resume a session", body, width)
}

func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	}
	return fmt.Sprintf("%dd ago", int(d.Hours()/24))
}
