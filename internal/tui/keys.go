package tui

import (
	"errors"
	"os/exec"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ponder-agent/ponder/internal/app"
)

// quitWindow is how soon a second Ctrl+C must follow the first to quit.
const quitWindow = 2 * time.Second

// key routes a key press: to the open dialog first, then to the keys of the
// whole screen, then to the command menu, then to the editor.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	if k.String() == "ctrl+c" {
		return m.ctrlC()
	}
	if len(m.dialogs) > 0 {
		return m.dialogKey(k)
	}
	m.hint = ""
	switch k.String() {
	case "shift+tab":
		// The mode change is recorded in the transcript: not here.
		a := m.app
		return func() tea.Msg {
			a.CycleMode()
			return nil
		}
	case "shift+down":
		return m.cycleTeam(1)
	case "shift+up":
		return m.cycleTeam(-1)
	case "esc":
		if m.menu.open {
			m.menu.open = false
			return nil
		}
		if m.team != nil {
			return m.showMember("")
		}
		if !m.running {
			return m.escIdle()
		}
		m.interrupt()
		return nil
	case "ctrl+g":
		return m.openPlanInEditor()
	case "ctrl+o":
		m.shown().toggleExpanded()
		return nil
	case "pgup":
		m.scroll += max(1, m.convHeight()-2)
		return nil
	case "pgdown":
		m.scroll = max(0, m.scroll-max(1, m.convHeight()-2))
		return nil
	case "ctrl+d":
		if m.in.Value() == "" {
			return tea.Quit
		}
	}
	if m.menu.open {
		if cmd, handled := m.menuKey(k); handled {
			return cmd
		}
	}
	var cmd tea.Cmd
	m.in, cmd = m.in.Update(k)
	m.updateMenu()
	return tea.Batch(cmd, m.updateFileMenu())
}

// ctrlC interrupts a running turn or clears the input; pressed twice in a
// row, it quits.
func (m *Model) ctrlC() tea.Cmd {
	now := m.now()
	if now.Sub(m.lastCtl) < quitWindow {
		return tea.Quit
	}
	m.lastCtl = now
	switch {
	case len(m.dialogs) > 0:
		m.dismissDialog()
	case m.running:
		m.interrupt()
	default:
		m.in.Reset()
		m.menu.open = false
	}
	m.hint = "Press Ctrl+C again to quit."
	return nil
}

// openPlanInEditor opens the plan file (Ctrl+G, /plan open). In plan mode
// the app creates a missing plan file first, so the user may start it.
func (m *Model) openPlanInEditor() tea.Cmd {
	a := m.app
	return func() tea.Msg {
		path, err := a.PlanForEditor()
		if errors.Is(err, app.ErrNoPlan) {
			return hintMsg("There is no plan to open yet.")
		}
		if err != nil {
			return notice{"warning", err.Error()}
		}
		return prepareEditor(a, "plan", path)
	}
}

// editorReady is an editor about to run on path.
type editorReady struct {
	purpose string // "plan" or "approval"
	path    string
	cmd     *exec.Cmd
	ended   func()
}

// openEditor opens path in the user's editor, for purpose.
func (m *Model) openEditor(purpose, path string) tea.Cmd {
	a := m.app
	return func() tea.Msg { return prepareEditor(a, purpose, path) }
}

// prepareEditor finds the user's editor; it runs in a command.
func prepareEditor(a *app.App, purpose, path string) tea.Msg {
	cmd, ended, err := a.EditorCommand(path)
	if err != nil {
		return notice{"warning", "Cannot open the editor: " + err.Error()}
	}
	return editorReady{purpose: purpose, path: path, cmd: cmd, ended: ended}
}

// execEditor hands the terminal to the editor until it ends.
func (m *Model) execEditor(msg editorReady) tea.Cmd {
	return tea.ExecProcess(msg.cmd, func(err error) tea.Msg {
		msg.ended()
		return editorDone{purpose: msg.purpose, path: msg.path, err: err}
	})
}

func (m *Model) editorReturned(msg editorDone) tea.Cmd {
	if msg.purpose == "approval" {
		return readEditedPlan(msg.path, msg.err)
	}
	if msg.err != nil {
		m.conv.notice("warning", "The editor failed: "+msg.err.Error())
		return nil
	}
	m.conv.notice("info", "Opened the plan in the editor: "+msg.path)
	return nil
}

// switchApp shows the session a /resume chose; the new session starts,
// and the old one closes (which waits for its work), outside Update.
func (m *Model) switchApp(msg resumed) tea.Cmd {
	if msg.err != nil {
		m.conv.notice("warning", "Cannot resume: "+msg.err.Error())
		return nil
	}
	m.showMember("")
	m.stopEvents()
	old := m.app
	m.app = msg.a
	m.events, m.stopEvents = m.app.Subscribe(1024)
	m.conv = newConversation(m.th)
	m.todos, m.phase, m.scroll = nil, "", 0
	m.loadHistory()
	a := m.app
	return tea.Batch(m.waitEvent(), func() tea.Msg {
		err := a.Start()
		old.Close()
		return switched{planFile: a.PlanFile(), err: err}
	})
}

// resume builds an app for another session of this project.
func (m *Model) resume(id string) tea.Cmd {
	opts := m.app.Options()
	opts.Resume, opts.Continue, opts.Fork, opts.SessionID, opts.Mode, opts.PlanName = id, false, false, "", "", ""
	return func() tea.Msg {
		a, err := app.New(opts)
		return resumed{a: a, err: err}
	}
}

// submit handles the text of the input box.
func (m *Model) submit(text string) tea.Cmd {
	m.menu.open = false
	m.scroll = 0 // back to the end, to see what the input brings
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		return nil
	}
	if strings.HasPrefix(trimmed, "/") {
		return m.command(trimmed)
	}
	if m.team != nil {
		return m.messageTeammate(text)
	}
	return m.sendTurn(text)
}
