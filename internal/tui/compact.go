package tui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"
)

type compacted struct{ err error }

// compact asks the app to summarise the conversation.
func (m *Model) compact(instructions string) tea.Cmd {
	if m.running {
		m.hint = "Wait for the turn to finish, or press Esc, before compacting."
		return nil
	}
	m.running, m.turnStart, m.frame, m.waited, m.waitSince = true, m.now(), 0, 0, time.Time{}
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	a := m.app
	m.conv.notice("info", "Summarising the conversation…")
	return tea.Batch(tick(), func() tea.Msg { return compacted{err: a.Compact(ctx, instructions)} })
}
