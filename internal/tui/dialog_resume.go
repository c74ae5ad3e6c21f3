package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/session"
)

// resumePicker lists this project's sessions to switch to.
type resumePicker struct {
	th       theme
	sessions []session.Info
	options  choice
	now      time.Time
}

func (m *Model) openResumePicker() tea.Cmd {
	list, err := m.app.Sessions()
	if err != nil {
		m.conv.notice("warning", "Cannot list sessions: "+err.Error())
		return nil
	}
	var others []session.Info
	for _, s := range list {
		if s.ID != m.app.ID {
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
		p.options.labels = append(p.options.labels, fmt.Sprintf("%s  %s  %s", s.ID[:min(8, len(s.ID))], ago(p.now.Sub(s.Modified)), sessionTitle(s.Path)))
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

// sessionTitle is the first thing the user typed in a session.
func sessionTitle(path string) string {
	tr, err := session.Load(path)
	if err != nil {
		return ""
	}
	for _, msg := range tr.Conversation() {
		if t := strings.TrimSpace(msg.Text()); t != "" && !msg.IsToolResult() {
			return firstLine(t)
		}
	}
	return ""
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
