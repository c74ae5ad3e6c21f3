package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/tui/input"
)

// outcome is what a key did to a dialog.
type outcome int

const (
	stay      outcome = iota // still open
	answered                 // closed with an answer
	dismissed                // closed without one: an interruption, never a yes
)

// dialog is a question on screen.
type dialog interface {
	// id is the question's id ("" for dialogs of the interface itself).
	id() string
	// key handles a key press (or paste) and may return a command.
	key(msg tea.Msg) (outcome, tea.Cmd)
	// answer is the answer once the dialog closed with one.
	answer() event.Answer
	// view draws the dialog at width, using at most height lines.
	view(width, height int) string
}

// openDialog shows a question of the session.
func (m *Model) openDialog(q event.Question) {
	var d dialog
	switch q.Kind {
	case event.AskToolUse:
		d = newPermissionDialog(q, m.th)
	case event.AskEnterPlan:
		d = newEnterPlanDialog(q, m.th)
	case event.AskPlanExit:
		ad := newApprovalDialog(q, m.th)
		a := m.app
		ad.edit = func(plan, name string) tea.Cmd { return func() tea.Msg { return editPlan(a, plan, name) } }
		d = ad
	case event.AskUser:
		d = newQuestionDialog(q, m.th)
	default:
		return
	}
	m.dialogs = append(m.dialogs, d)
}

// closeDialog removes a question answered or withdrawn elsewhere.
func (m *Model) closeDialog(id string) {
	for i, d := range m.dialogs {
		if d.id() == id && id != "" {
			m.dialogs = append(m.dialogs[:i], m.dialogs[i+1:]...)
			return
		}
	}
}

func (m *Model) activeDialog() dialog {
	if len(m.dialogs) == 0 {
		return nil
	}
	return m.dialogs[0]
}

// dialogKey passes a key to the front dialog and acts on its outcome.
func (m *Model) dialogKey(msg tea.Msg) tea.Cmd {
	d := m.dialogs[0]
	out, cmd := d.key(msg)
	switch out {
	case answered:
		m.dialogs = m.dialogs[1:]
		if d.id() != "" {
			m.app.Answer(d.id(), d.answer())
		} else if p, ok := d.(*resumePicker); ok {
			return m.resume(p.chosen())
		}
	case dismissed:
		m.dismissDialog()
	}
	return cmd
}

// dismissDialog closes the front dialog without an answer. For a session
// question that is an interruption: the tool is told nobody answered.
func (m *Model) dismissDialog() {
	if len(m.dialogs) == 0 {
		return
	}
	d := m.dialogs[0]
	m.dialogs = m.dialogs[1:]
	if d.id() != "" {
		m.app.Dismiss(d.id())
	}
}

// choice is a list of options moved through with the arrow keys or picked
// by number.
type choice struct {
	labels   []string
	selected int
}

// key moves the selection; it reports whether Enter (or a number) picked
// an option.
func (c *choice) key(k tea.KeyPressMsg) bool {
	switch s := k.String(); s {
	case "up", "k", "shift+tab":
		c.selected = (c.selected + len(c.labels) - 1) % len(c.labels)
	case "down", "j", "tab":
		c.selected = (c.selected + 1) % len(c.labels)
	case "enter":
		return true
	default:
		if len(s) == 1 && s[0] >= '1' && s[0] <= '9' && int(s[0]-'1') < len(c.labels) {
			c.selected = int(s[0] - '1')
			return true
		}
	}
	return false
}

func (c *choice) view(th theme, width int) string {
	lines := make([]string, len(c.labels))
	for i, l := range c.labels {
		prefix := "  "
		style := th.unselected
		if i == c.selected {
			prefix, style = "❯ ", th.selected
		}
		lines[i] = style.Render(ansi.Truncate(prefix+string(rune('1'+i))+". "+l, width, "…"))
	}
	return strings.Join(lines, "\n")
}

// frame draws a dialog box with a title.
func frame(th theme, title, body string, width int) string {
	inner := max(20, width-4)
	return th.dialogBorder.Width(inner + 4).Render(th.dialogTitle.Render(title) + "\n\n" + body)
}

// typeInto passes a key to a dialog's text field. It reports back when Esc
// leaves the field, and done with the text when Enter submits it (an empty
// field submits an empty text).
func typeInto(field *input.Model, msg tea.Msg) (text string, done, back bool) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case k.String() == "esc":
			return "", false, true
		case k.String() == "enter" && strings.TrimSpace(field.Value()) == "":
			return "", true, false
		}
	}
	var cmd tea.Cmd
	*field, cmd = field.Update(msg)
	if cmd != nil {
		if sub, ok := cmd().(input.Submitted); ok {
			return sub.Text, true, false
		}
	}
	return "", false, false
}
