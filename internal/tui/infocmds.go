package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
)

// The information commands: /context, /permissions and /status read the
// session's state through the app and show it as a notice; none changes
// anything. They run as commands, like every read of the app's state
// that is more than a field.

// infoCommand shows what show says about the app.
func (m *Model) infoCommand(show func(a *app.App) string) tea.Cmd {
	a := m.app
	return func() tea.Msg { return itemMsg{&item{kind: itemNotice, title: "info", text: display(show(a))}} }
}

// statusText is /status: the session, model, mode, sandbox and folder.
func statusText(a *app.App) string {
	s := a.Status()
	var b strings.Builder
	fmt.Fprintf(&b, "Session: %s", s.Session)
	if s.Resumed {
		b.WriteString(" (resumed)")
	}
	fmt.Fprintf(&b, "\nModel: %s\nMode: %s", s.Model, app.ModeTitle(s.Mode))
	if s.PlanFile != "" {
		fmt.Fprintf(&b, " · plan file %s", tildePath(s.PlanFile))
	}
	sandbox := s.Sandbox
	if sandbox == event.SandboxNone {
		sandbox += " (no OS sandbox works here; see ponder doctor)"
	}
	fmt.Fprintf(&b, "\nSandbox: %s\nFolder: %s", sandbox, tildePath(s.Dir))
	if !s.Trusted {
		b.WriteString(" (not trusted)")
	}
	return b.String()
}

// initCommand is /init: the app's prompt to write an AGENTS.md draft,
// sent as a turn like any other, so its write asks as any edit does.
func (m *Model) initCommand(line string) tea.Cmd {
	return m.sendTurn(line)
}
