package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
)

var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// View draws the screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "ponder"
	return v
}

// render lays the screen out: the conversation fills what the panels
// below it leave.
func (m *Model) render() string {
	w := max(30, m.width)
	bottom := m.bottom(w)
	convH := max(1, m.height-len(bottom))
	lines := m.withWelcome(m.shown().lines(w), w)
	end := max(0, len(lines)-m.scroll)
	m.scroll = len(lines) - end
	start := max(0, end-convH)
	out := make([]string, 0, m.height)
	for range convH - (end - start) {
		out = append(out, "")
	}
	out = append(out, lines[start:end]...)
	out = append(out, bottom...)
	return strings.Join(out, "\n")
}

// convHeight is the height of the conversation area.
func (m *Model) convHeight() int { return max(1, m.height-len(m.bottom(max(30, m.width)))) }

// bottom returns the lines under the conversation, top to bottom.
func (m *Model) bottom(w int) []string {
	var out []string
	if lines := m.todoPanel(); lines != "" {
		out = append(out, strings.Split(lines, "\n")...)
	}
	if m.running {
		out = append(out, m.spinnerLine(w, m.activeDialog() != nil))
	}
	if m.hint != "" {
		out = append(out, m.th.warn.Render(ansi.Truncate(m.hint, w, "…")))
	}
	if head := m.teamHeader(w); head != "" {
		out = append(out, head)
	} else if hint := m.planHint(w); hint != "" && m.activeDialog() == nil {
		out = append(out, hint)
	}
	if d := m.activeDialog(); d != nil {
		// The dialog gets what the other lines and a sliver of the
		// conversation (two lines) leave.
		room := m.height - len(out) - 1 - 2
		out = append(out, strings.Split(d.view(w, max(8, room)), "\n")...)
	} else {
		out = append(out, m.th.inputBorder.Render(strings.Repeat("─", w)))
		out = append(out, strings.Split(m.in.View(), "\n")...)
		if m.menu.open {
			out = append(out, m.menuLines(w)...)
		}
	}
	return append(out, m.statusLine(w))
}

func (m *Model) spinnerLine(w int, waiting bool) string {
	now := m.now()
	worked := now.Sub(m.turnStart) - m.waited
	if !m.waitSince.IsZero() {
		worked -= now.Sub(m.waitSince)
	}
	el := max(0, worked).Truncate(time.Second)
	if waiting {
		return m.th.accent.Render(ansi.Truncate("… Waiting for your answer · esc dismisses", w, "…"))
	}
	s := fmt.Sprintf("%s Working… %s", spinnerFrames[m.frame%len(spinnerFrames)], el)
	if m.tokens > 0 {
		s += fmt.Sprintf(" · ↓ %s tokens", compact(m.tokens))
	}
	s += " · esc to interrupt"
	return m.th.accent.Render(ansi.Truncate(s, w, "…"))
}

// planHint names the plan file and the planning phase while in plan mode.
func (m *Model) planHint(w int) string {
	if m.app.Mode() != event.ModePlan {
		return ""
	}
	s := "◆ planning"
	if m.phase != "" {
		s += " (" + m.phase + ")"
	}
	s += " · plan file " + tildePath(m.planFile) + " · nothing else changes until you approve"
	return m.th.planHint.Render(ansi.Truncate(s, w, "…"))
}

// statusLine shows the mode in words, the model, the directory and the
// OS sandbox in force.
func (m *Model) statusLine(w int) string {
	mode := m.app.Mode()
	badge := m.th.modeDefault.Render(app.ModeTitle(mode))
	switch mode {
	case event.ModePlan:
		badge = m.th.modePlan.Render(app.ModeTitle(mode))
	case event.ModeAcceptEdits:
		badge = m.th.modeAccept.Render(app.ModeTitle(mode))
	case event.ModeBypass:
		badge = m.th.modeBypass.Render(app.ModeTitle(mode))
	}
	// The team's word comes early: what is cut at the edge is the
	// model, the directory and the sandbox, never who awaits approval.
	left := badge + m.teamStatus() + m.th.dim.Render(" · "+m.app.Model()+" · "+tildePath(m.app.Dir()))
	if k := m.app.SandboxKind(); k == event.SandboxNone {
		left += m.th.warn.Render(" · sandbox: none")
	} else {
		left += m.th.dim.Render(" · sandbox: " + string(k))
	}
	if m.demo != "" {
		left += m.th.warn.Render(" · " + m.demo)
	}
	help := "shift+tab mode · / commands"
	switch {
	case m.team != nil:
		help = "shift+↑↓ team · esc lead"
	case len(m.teammates) > 0:
		help = "shift+↓ teammates"
	}
	right := m.th.faint.Render(help)
	rw := ansi.StringWidth(right)
	if w-ansi.StringWidth(left)-rw < 2 {
		if m.team == nil && len(m.teammates) == 0 || rw+20 > w {
			return ansi.Truncate(left, w, "…")
		}
		// The keys of the team stay in sight: they are the way back.
		left = ansi.Truncate(left, w-rw-2, "…")
	}
	return left + strings.Repeat(" ", w-ansi.StringWidth(left)-rw) + right
}

// maxMenuLines is how many entries of a completion menu are shown at
// once; the window follows the selection.
const maxMenuLines = 10

func (m *Model) menuLines(w int) []string {
	out := make([]string, 0, len(m.menu.matches))
	start := max(0, m.menu.selected-maxMenuLines+1)
	for i, c := range m.menu.matches {
		if i < start || i >= start+maxMenuLines {
			continue
		}
		line := fmt.Sprintf("  %-12s %-20s %s", c.name, c.args, c.help)
		style := m.th.dim
		if i == m.menu.selected {
			line, style = "❯"+line[1:], m.th.selected
		}
		out = append(out, style.Render(ansi.Truncate(line, w, "…")))
	}
	return out
}

// todoPanel shows the todo list while work on it is under way.
func (m *Model) todoPanel() string {
	done := 0
	for _, it := range m.todos {
		if it.Status == event.TodoCompleted {
			done++
		}
	}
	if len(m.todos) == 0 || (done == len(m.todos) && !m.running) {
		return ""
	}
	return m.th.dim.Render(fmt.Sprintf("Todos %d/%d", done, len(m.todos))+currentStep(m.todos)) + "\n" + todoLines(m.todos, m.th)
}

// tildePath shortens a path under the home directory.
func tildePath(p string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if rel, err := filepath.Rel(home, p); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.Join("~", rel)
		}
	}
	return p
}

// display shortens every path under the home directory in a text meant
// for the screen.
func display(s string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" || home == "/" {
		return s
	}
	return strings.ReplaceAll(s, home+string(filepath.Separator), "~"+string(filepath.Separator))
}

func compact(n int) string {
	if n < 1000 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%.1fk", float64(n)/1000)
}
