package tui

import (
	"fmt"

	"github.com/charmbracelet/x/ansi"

	"github.com/ponder-agent/ponder/internal/app"
)

// welcomeLines are the first screen, shown above the conversation until
// the first prompt: what ponder is, the mode and the model, and the three
// keys to start with.
func (m *Model) welcomeLines(w int) []string {
	th := m.th
	cut := func(s string) string { return ansi.Truncate(s, w, "…") }
	lines := []string{
		cut(th.planHint.Render("ponder") + th.dim.Render(" · a coding agent that plans before it changes your code")),
		cut(th.dim.Render(fmt.Sprintf("  Mode: %s · Model: %s · %s", app.ModeTitle(m.app.Mode()), m.app.Model(), tildePath(m.app.Dir())))),
		"",
	}
	for _, k := range [][2]string{
		{"shift+tab", "switch mode: default → accept edits → plan mode (plans first)"},
		{"/", "commands: /plan <task>, /init for an AGENTS.md, /help for all"},
		{"esc", "interrupt; pressed twice when idle, rewind a turn"},
	} {
		lines = append(lines, cut(fmt.Sprintf("  %s %s", th.accent.Render(fmt.Sprintf("%-9s", k[0])), th.dim.Render(k[1]))))
	}
	return append(lines, "")
}

// showWelcome says whether the first screen is up: the main conversation
// is shown, nothing has been sent in it yet, and no dialog is open.
func (m *Model) showWelcome() bool {
	if m.team != nil || m.activeDialog() != nil {
		return false
	}
	for _, it := range m.conv.items {
		if it.kind != itemNotice {
			return false
		}
	}
	return true
}

// withWelcome puts the first screen above lines when it is up.
func (m *Model) withWelcome(lines []string, w int) []string {
	if !m.showWelcome() {
		return lines
	}
	return append(m.welcomeLines(w), lines...)
}
