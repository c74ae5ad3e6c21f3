package tui

import (
	"context"
	"fmt"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
)

// teammateState notes what a teammate does and tells the user when it
// changes.
func (m *Model) teammateState(e event.TeammateState) tea.Cmd {
	if m.teammates == nil {
		m.teammates = map[string]event.TeammateState{}
	}
	old, known := m.teammates[e.Name]
	if e.SessionID == "" {
		e.SessionID = old.SessionID
	}
	if known && old.State == e.State {
		m.teammates[e.Name] = e
		return nil
	}
	m.teammates[e.Name] = e
	text := fmt.Sprintf("Teammate %s: %s.", e.Name, stateWords(e.State))
	if e.Summary != "" {
		text += " " + firstLine(e.Summary)
	}
	m.conv.notice("info", text)
	return nil
}

// teamMessage shows a message of the team, and starts a turn for the
// lead's model when it arrived while none runs.
func (m *Model) teamMessage(e event.TeamMessage) tea.Cmd {
	switch {
	case e.Sent && e.Type == "plan_approval_response":
		verdict := "rejected"
		if e.Approved != nil && *e.Approved {
			verdict = "approved"
		}
		m.conv.notice("info", fmt.Sprintf("Plan of %s %s.", e.To, verdict))
		return nil
	case e.Sent:
		return nil
	case e.Type == "text":
		m.conv.notice("info", fmt.Sprintf("%s → %s: %s", e.From, e.To, firstLine(e.Text)))
	}
	return m.teamTurn()
}

// teamTurn runs a turn of the lead's model for the team's messages that
// wait, unless a turn runs (it starts one when that ends).
func (m *Model) teamTurn() tea.Cmd {
	if m.running || !m.app.HasTeamMessages() {
		return nil
	}
	m.conv.notice("info", "Reading the team's messages.")
	a := m.app
	return m.startTurn(func(ctx context.Context) (app.TurnResult, error) {
		res, _, err := a.SendTeam(ctx)
		return res, err
	})
}

// teamStatus is the status line's word on the team, "" without one.
func (m *Model) teamStatus() string {
	if len(m.teammates) == 0 {
		return ""
	}
	waiting := 0
	for _, s := range m.teammates {
		if s.State == event.TeammateAwaitingApproval {
			waiting++
		}
	}
	s := fmt.Sprintf(" · team: %d", len(m.teammates))
	if waiting > 0 {
		return m.th.dim.Render(s) + m.th.warn.Render(fmt.Sprintf(", %d awaiting approval", waiting))
	}
	return m.th.dim.Render(s)
}

// teamList is /team's answer.
func (m *Model) teamList() string {
	if len(m.teammates) == 0 {
		return "No teammates. Start ponder with --team NAME to lead a team; the model starts teammates with SpawnTeammate."
	}
	names := make([]string, 0, len(m.teammates))
	for n := range m.teammates {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("Teammates:")
	for _, n := range names {
		s := m.teammates[n]
		fmt.Fprintf(&b, "\n  %-16s %s", n, stateWords(s.State))
		if s.SessionID != "" {
			fmt.Fprintf(&b, " (session %s)", s.SessionID)
		}
		if m.team != nil && m.team.name == n {
			b.WriteString(" ← shown")
		}
	}
	b.WriteString("\nShift+Down and Shift+Up show a teammate's conversation (type there to message it); Esc comes back to the lead.")
	return b.String()
}

// stateWords is a teammate state in words.
func stateWords(state string) string {
	switch state {
	case event.TeammateAwaitingApproval:
		return "awaiting approval"
	case event.TeammateWorking:
		return "working"
	case event.TeammateIdle:
		return "idle"
	case event.TeammateStopped:
		return "stopped"
	}
	return state
}
