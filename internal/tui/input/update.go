package input

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// action is what a key press asks of the editor.
type action int

const (
	actNone action = iota
	actInsert
	actEnter
	actNewline
	actBackspace
	actDelete
	actDeleteWordBackward
	actDeleteWordForward
	actKillToStart
	actKillToEnd
	actLeft
	actRight
	actWordLeft
	actWordRight
	actUp
	actDown
	actLineStart
	actLineEnd
	actBufferStart
	actBufferEnd
)

// lockMods are modifier states that say nothing about the key's meaning.
const lockMods = tea.ModCapsLock | tea.ModNumLock | tea.ModScrollLock

// classify maps a key press to its action; actNone means the editor leaves
// the key to its parent.
func classify(k tea.KeyPressMsg) action {
	mod := k.Mod &^ lockMods
	alt, ctrl := mod == tea.ModAlt, mod == tea.ModCtrl
	switch k.Code {
	case tea.KeyEnter, tea.KeyKpEnter:
		switch mod {
		case 0:
			return actEnter
		case tea.ModShift, tea.ModAlt:
			return actNewline
		}
		return actNone
	case tea.KeyBackspace:
		switch {
		case mod == 0 || mod == tea.ModShift:
			return actBackspace
		case alt || ctrl:
			return actDeleteWordBackward
		}
		return actNone
	case tea.KeyDelete:
		switch {
		case mod == 0:
			return actDelete
		case alt || ctrl:
			return actDeleteWordForward
		}
		return actNone
	case tea.KeyLeft, tea.KeyRight:
		right := k.Code == tea.KeyRight
		switch {
		case mod == 0 && right:
			return actRight
		case mod == 0:
			return actLeft
		case (alt || ctrl) && right:
			return actWordRight
		case alt || ctrl:
			return actWordLeft
		}
		return actNone
	case tea.KeyUp, tea.KeyDown:
		switch {
		case mod != 0:
			return actNone
		case k.Code == tea.KeyUp:
			return actUp
		}
		return actDown
	case tea.KeyHome, tea.KeyEnd:
		home := k.Code == tea.KeyHome
		switch {
		case mod == 0 && home:
			return actLineStart
		case mod == 0:
			return actLineEnd
		case ctrl && home:
			return actBufferStart
		case ctrl:
			return actBufferEnd
		}
		return actNone
	}
	if ctrl {
		switch k.Code {
		case 'a':
			return actLineStart
		case 'e':
			return actLineEnd
		case 'h':
			return actBackspace
		case 'j':
			return actNewline
		case 'k':
			return actKillToEnd
		case 'u':
			return actKillToStart
		case 'w':
			return actDeleteWordBackward
		}
		return actNone
	}
	if alt {
		switch k.Code {
		case 'b':
			return actWordLeft
		case 'f':
			return actWordRight
		case 'd':
			return actDeleteWordForward
		}
		return actNone
	}
	if k.Text != "" && typing(mod) {
		return actInsert
	}
	return actNone
}

// typing reports whether text sent with these modifiers is typed text:
// none or Shift, or Ctrl+Alt together, which is how AltGr arrives on some
// systems.
func typing(mod tea.KeyMod) bool {
	mod &^= tea.ModShift
	return mod == 0 || mod == tea.ModCtrl|tea.ModAlt
}

// Consumes reports whether Update acts on this key press, so that the
// parent can route the key. It depends only on the key and on focus, not
// on the buffer: Up on an empty buffer is consumed even with no history.
//
// Consumed while focused: typed text (including Shift and AltGr), Enter,
// Shift+Enter, Alt+Enter, Ctrl+J, Backspace, Ctrl+H, Delete, Alt/Ctrl+
// Backspace, Alt/Ctrl+Delete, Alt+D, Ctrl+W, Ctrl+U, Ctrl+K, Left, Right,
// Alt/Ctrl+Left, Alt/Ctrl+Right, Alt+B, Alt+F, Up, Down, Home, End,
// Ctrl+Home, Ctrl+End, Ctrl+A and Ctrl+E. Everything else — Esc, Tab,
// Shift+Tab, Ctrl+C, Ctrl+D, Ctrl+G, PgUp, PgDown, function keys and so
// on — is left to the parent.
func (m Model) Consumes(msg tea.KeyPressMsg) bool {
	return m.focused && classify(msg) != actNone
}

// Update handles key presses and bracketed paste while the editor is
// focused and ignores every other message. When the user submits, the
// buffer is already reset and the returned command yields [Submitted].
//
// Enter submits unless the buffer is blank (then it does nothing) or the
// character before the cursor is a backslash: then the backslash is
// removed and a newline inserted. Up on the first screen row goes back in
// the history, Down on the last goes forward and at last restores the
// unsent draft; with nothing to go to they move to the buffer's start or
// end. Pasted text is inserted as is, but for "\r\n" and "\r" becoming
// "\n", tabs becoming four spaces and control characters being dropped.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if !m.focused {
		return m, nil
	}
	m.ensure()
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.PasteMsg:
		m.insert(clean(msg.Content))
		m.goal = -1
	case tea.KeyPressMsg:
		a := classify(msg)
		if a == actNone {
			return m, nil
		}
		if a != actUp && a != actDown {
			m.goal = -1
		}
		cmd = m.do(a, msg.Text)
	default:
		return m, nil
	}
	m.scroll()
	return m, cmd
}

// do carries out an action; text is the key's text for actInsert.
func (m *Model) do(a action, text string) tea.Cmd {
	switch a {
	case actInsert:
		m.insert(clean(text))
	case actEnter:
		return m.enter()
	case actNewline:
		m.insert("\n")
	case actBackspace:
		m.backspace()
	case actDelete:
		m.deleteForward()
	case actDeleteWordBackward:
		m.deleteWordBackward()
	case actDeleteWordForward:
		m.deleteWordForward()
	case actKillToStart:
		m.killToStart()
	case actKillToEnd:
		m.killToEnd()
	case actLeft:
		m.left()
	case actRight:
		m.right()
	case actWordLeft:
		m.wordLeft()
	case actWordRight:
		m.wordRight()
	case actUp:
		if !m.vertical(-1) && !m.older() {
			m.row, m.off, m.goal = 0, 0, -1
		}
	case actDown:
		if !m.vertical(1) && !m.newer() {
			m.row = len(m.lines) - 1
			m.off, m.goal = len(m.lines[m.row].text), -1
		}
	case actLineStart:
		m.off = 0
	case actLineEnd:
		m.off = len(m.lines[m.row].text)
	case actBufferStart:
		m.row, m.off = 0, 0
	case actBufferEnd:
		m.row = len(m.lines) - 1
		m.off = len(m.lines[m.row].text)
	}
	return nil
}

// enter handles a plain Enter: a newline after a backslash, nothing on a
// blank buffer, a submission otherwise.
func (m *Model) enter() tea.Cmd {
	if m.off > 0 && m.lines[m.row].text[m.off-1] == '\\' {
		m.remove(m.row, m.off-1, m.row, m.off)
		m.insert("\n")
		return nil
	}
	text := m.Value()
	if strings.TrimSpace(text) == "" {
		return nil
	}
	m.AddHistory(text)
	m.Reset()
	return submit(text)
}
