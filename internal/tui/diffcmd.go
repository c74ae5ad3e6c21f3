package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// itemMsg adds an entry to the conversation; commands that read files or
// state outside Update send it back.
type itemMsg struct{ it *item }

// diffCommand is /diff: the files ponder changed in this session, each
// from before its first change to now. Reading them is I/O, so it runs
// in a command.
func (m *Model) diffCommand() tea.Cmd {
	a := m.app
	return func() tea.Msg {
		changes := a.SessionChanges()
		if len(changes) == 0 {
			return notice{"info", "ponder has changed no file in this session."}
		}
		return itemMsg{&item{kind: itemDiff, changes: changes}}
	}
}

// renderDiff draws /diff's answer: per file its path, the count of lines
// added and removed, and the coloured diff in full.
func (c *conversation) renderDiff(it *item, width int) string {
	th := c.th
	lines := []string{th.planHint.Render(fmt.Sprintf("Changes this session (%s)", plural(len(it.changes), "file")))}
	for _, ch := range it.changes {
		head := "  " + th.toolName.Render(ansi.Truncate(display(ch.Path), max(10, width-20), "…"))
		if ch.Note != "" {
			lines = append(lines, head+" "+th.warn.Render(ansi.Truncate(display(ch.Note), max(10, width-ansi.StringWidth(head)-1), "…")))
			continue
		}
		added, removed := diffCounts(ch.Diff)
		lines = append(lines, head+" "+th.dim.Render(fmt.Sprintf("+%d −%d", added, removed)))
		for _, l := range diffLines(th, ch.Diff, max(10, width-4)) {
			lines = append(lines, "    "+l)
		}
	}
	return strings.Join(lines, "\n")
}
