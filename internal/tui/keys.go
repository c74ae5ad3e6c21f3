package tui

import (
	"os"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/permission"
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
		m.app.CycleMode()
		return nil
	case "esc":
		if m.menu.open {
			m.menu.open = false
			return nil
		}
		m.interrupt()
		return nil
	case "ctrl+g":
		return m.openPlanInEditor()
	case "ctrl+o":
		m.conv.toggleExpanded()
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
	return cmd
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

// openPlanInEditor opens the plan file (Ctrl+G, /plan open).
func (m *Model) openPlanInEditor() tea.Cmd {
	path := m.app.Plan.PlanFile("")
	if _, err := os.Stat(path); err != nil {
		if m.app.Mode() != permission.ModePlan {
			m.hint = "There is no plan to open yet."
			return nil
		}
		// In plan mode the user may start the plan themselves.
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			m.conv.notice("warning", "Cannot create the plan file: "+err.Error())
			return nil
		}
	}
	return m.runEditor("plan", path)
}

func (m *Model) runEditor(purpose, path string) tea.Cmd {
	cmd, ended, err := m.app.EditorCommand(path)
	if err != nil {
		m.conv.notice("warning", "Cannot open the editor: "+err.Error())
		return nil
	}
	return tea.ExecProcess(cmd, func(err error) tea.Msg {
		ended()
		return editorDone{purpose: purpose, path: path, err: err}
	})
}

func (m *Model) editorReturned(msg editorDone) tea.Cmd {
	if msg.purpose == "approval" {
		if d, ok := m.activeDialog().(*approvalDialog); ok {
			d.editorReturned(msg.path, msg.err)
		}
		return nil
	}
	if msg.err != nil {
		m.conv.notice("warning", "The editor failed: "+msg.err.Error())
		return nil
	}
	m.conv.notice("info", "Opened the plan in the editor: "+msg.path)
	return nil
}

// switchApp replaces the session after /resume.
func (m *Model) switchApp(msg resumed) tea.Cmd {
	if msg.err != nil {
		m.conv.notice("warning", "Cannot resume: "+msg.err.Error())
		return nil
	}
	m.stopEvents()
	old := m.app
	m.app = msg.a
	m.events, m.stopEvents = m.app.Bus.Subscribe(1024)
	m.conv = newConversation(m.th)
	m.todos, m.phase, m.scroll = nil, "", 0
	if err := m.app.Start(); err != nil {
		m.conv.notice("warning", err.Error())
	}
	m.loadHistory()
	old.Close()
	return m.waitEvent()
}

// resume builds an app for another session of this project.
func (m *Model) resume(id string) tea.Cmd {
	opts := m.app.Options()
	opts.Resume, opts.Continue, opts.Fork, opts.SessionID, opts.Mode = id, false, false, "", ""
	return func() tea.Msg {
		a, err := app.New(opts)
		return resumed{a: a, err: err}
	}
}

// submit handles the text of the input box.
func (m *Model) submit(text string) tea.Cmd {
	m.menu.open = false
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		return nil
	}
	if strings.HasPrefix(trimmed, "/") {
		return m.command(trimmed)
	}
	return m.sendTurn(text)
}
