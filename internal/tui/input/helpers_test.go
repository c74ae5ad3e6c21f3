package input

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// key builds the press of a named key such as "enter", "ctrl+a",
// "alt+left" or "shift+tab"; a single character is that character.
func key(name string) tea.KeyPressMsg {
	var mod tea.KeyMod
	for {
		switch {
		case strings.HasPrefix(name, "ctrl+"):
			mod |= tea.ModCtrl
			name = name[5:]
			continue
		case strings.HasPrefix(name, "alt+"):
			mod |= tea.ModAlt
			name = name[4:]
			continue
		case strings.HasPrefix(name, "shift+"):
			mod |= tea.ModShift
			name = name[6:]
			continue
		}
		break
	}
	codes := map[string]rune{
		"enter": tea.KeyEnter, "backspace": tea.KeyBackspace, "delete": tea.KeyDelete,
		"left": tea.KeyLeft, "right": tea.KeyRight, "up": tea.KeyUp, "down": tea.KeyDown,
		"home": tea.KeyHome, "end": tea.KeyEnd, "esc": tea.KeyEscape, "tab": tea.KeyTab,
		"pgup": tea.KeyPgUp, "f1": tea.KeyF1,
	}
	if c, ok := codes[name]; ok {
		return tea.KeyPressMsg{Code: c, Mod: mod}
	}
	r, _ := utf8.DecodeRuneInString(name)
	k := tea.KeyPressMsg{Code: r, Mod: mod}
	if mod&^tea.ModShift == 0 {
		k.Text = name
	}
	return k
}

// typed returns the key presses that type s, one per grapheme cluster, as
// the terminal decoder sends them.
func typed(s string) []tea.Msg {
	var msgs []tea.Msg
	for s != "" {
		c, _ := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		code, size := utf8.DecodeRuneInString(c)
		if size < len(c) {
			code = tea.KeyExtended
		}
		if c == " " {
			code = tea.KeySpace
		}
		msgs = append(msgs, tea.KeyPressMsg{Code: code, Text: c})
		s = s[len(c):]
	}
	return msgs
}

// keys returns the presses of several named keys.
func keys(names ...string) []tea.Msg {
	msgs := make([]tea.Msg, len(names))
	for i, n := range names {
		msgs[i] = key(n)
	}
	return msgs
}

func paste(s string) []tea.Msg { return []tea.Msg{tea.PasteMsg{Content: s}} }

// seq joins message lists.
func seq(parts ...[]tea.Msg) []tea.Msg {
	var out []tea.Msg
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// feed sends msgs to m and returns the model and the messages its
// commands yielded.
func feed(t testing.TB, m Model, msgs []tea.Msg) (Model, []tea.Msg) {
	t.Helper()
	var out []tea.Msg
	for _, msg := range msgs {
		var cmd tea.Cmd
		m, cmd = m.Update(msg)
		if cmd != nil {
			out = append(out, cmd())
		}
	}
	return m, out
}

// plainModel returns an editor whose View marks the cursor with brackets
// and uses no escape sequences.
func plainModel(width int) Model {
	m := New()
	m.SetWidth(width)
	m.SetStyles(Styles{Cursor: func(s string) string { return "[" + s + "]" }})
	return m
}

// checkInvariants verifies what every edit must preserve: the wrapping
// equals a fresh one, the cursor sits on a cluster boundary, and no screen
// row is wider than the set width.
func checkInvariants(t testing.TB, m Model) {
	t.Helper()
	tw := m.textWidth()
	for i, l := range m.lines {
		if strings.Contains(l.text, "\n") {
			t.Fatalf("line %d holds a newline: %q", i, l.text)
		}
		fresh := layout(nil, l.text, tw, 0, nil)
		if !slices.Equal(fresh, l.rows) {
			t.Fatalf("line %d %q: rows %v, fresh layout gives %v", i, l.text, l.rows, fresh)
		}
	}
	if m.row < 0 || m.row >= len(m.lines) || m.off < 0 || m.off > len(m.lines[m.row].text) {
		t.Fatalf("cursor (%d, %d) out of the buffer", m.row, m.off)
	}
	if m.snap(m.row, m.off) != m.off {
		t.Fatalf("cursor offset %d inside a cluster of %q", m.off, m.lines[m.row].text)
	}
	if m.width > promptWidth+2 {
		plain := m
		plain.styles = Styles{}
		for _, row := range strings.Split(plain.View(), "\n") {
			// The prompt is measured apart: a stray combining mark at the
			// start of a row would otherwise join its space.
			if w := promptWidth + ansi.StringWidth(row[promptWidth:]); w > m.width && !hasOverwide(row, tw) {
				t.Fatalf("row %q is %d cells wide, more than %d", row, w, m.width)
			}
		}
	}
}

// hasOverwide reports whether a row holds a cluster wider than tw, which
// may overflow by design.
func hasOverwide(row string, tw int) bool {
	for row != "" {
		n, w := cluster(row)
		if w > tw {
			return true
		}
		row = row[n:]
	}
	return false
}
