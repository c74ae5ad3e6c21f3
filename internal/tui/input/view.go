package input

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// The prompts that start each screen row. Both are promptWidth cells wide.
const (
	firstPrompt = "> "
	nextPrompt  = "  "
	promptWidth = 2
)

// Styles decorates the parts of View. Each field is a function so that any
// styling library can be plugged in (a lipgloss Style's Render, say); a nil
// field leaves its part plain.
type Styles struct {
	Prompt      func(string) string // the prompt of every row
	Placeholder func(string) string // the placeholder text
	Cursor      func(string) string // the cluster under the drawn cursor, or a space at a line's end
}

// DefaultStyles draws the placeholder faint and the cursor in reverse video
// with bare SGR sequences.
func DefaultStyles() Styles {
	return Styles{
		Placeholder: func(s string) string { return "\x1b[2m" + s + "\x1b[22m" },
		Cursor:      func(s string) string { return "\x1b[7m" + s + "\x1b[27m" },
	}
}

// SetStyles replaces the styles used by View.
func (m *Model) SetStyles(s Styles) { m.styles = s }

// SetVirtualCursor chooses whether View draws the cursor itself (true, the
// default) or leaves it to the terminal: then place a tea.Cursor at
// [Model.CursorPosition].
func (m *Model) SetVirtualCursor(on bool) { m.virtual = on }

// CursorPosition returns where the cursor is on screen, in cells, relative
// to the top-left corner of View's output, prompt included. ok is false
// when the editor is blurred. Offset it by where the parent draws the
// editor before building a tea.Cursor.
func (m Model) CursorPosition() (x, y int, ok bool) {
	if len(m.lines) == 0 {
		return promptWidth, 0, m.focused
	}
	l := m.lines[m.row]
	k := rowOf(l.rows, m.off)
	return promptWidth + width(l.text[l.rows[k]:m.off]), m.cursorRow() - m.top, m.focused
}

func apply(f func(string) string, s string) string {
	if f == nil {
		return s
	}
	return f(s)
}

// View renders the buffer: one screen row per line of output, no trailing
// newline, "> " before the first row and "  " before the others, and no
// row wider than the width set (bar a single cluster wider than a whole
// row). While the buffer is empty it shows the placeholder, if any.
//
// When focused, View draws the cursor itself with Styles.Cursor (reverse
// video by default) unless SetVirtualCursor(false) was called; the
// terminal cursor can then be placed with CursorPosition. With a maximum
// height set, View shows the rows around the cursor.
func (m Model) View() string {
	showCursor := m.focused && m.virtual
	if m.Empty() {
		return m.viewEmpty(showCursor)
	}
	first, last := m.top, m.top+m.Height()
	var b strings.Builder
	b.Grow(m.viewSize(first, last))
	y := 0
	for i, l := range m.lines {
		if y+len(l.rows) <= first {
			y += len(l.rows)
			continue
		}
		for k, start := range l.rows {
			if y >= last {
				return b.String()
			}
			if y >= first {
				if y > first {
					b.WriteByte('\n')
				}
				prompt := nextPrompt
				if i == 0 && k == 0 {
					prompt = firstPrompt
				}
				b.WriteString(apply(m.styles.Prompt, prompt))
				seg := l.text[start:rowEnd(l.rows, k, l.text)]
				c := m.off - start
				if showCursor && i == m.row && c >= 0 && (c < len(seg) || k == len(l.rows)-1) {
					m.writeWithCursor(&b, seg, c)
				} else {
					b.WriteString(seg)
				}
			}
			y++
		}
	}
	return b.String()
}

// viewSize estimates the bytes View writes for screen rows first to last,
// so that its builder grows once.
func (m Model) viewSize(first, last int) int {
	n, y := 32, 0
	for _, l := range m.lines {
		if y >= last {
			break
		}
		if y+len(l.rows) > first {
			n += len(l.text) + len(l.rows)*(promptWidth+1)
		}
		y += len(l.rows)
	}
	if m.styles.Prompt != nil {
		n += (last - first) * 16
	}
	return n
}

// writeWithCursor writes seg with the cursor drawn on the cluster at byte
// offset c, or on a blank cell after it when c is its end.
func (m Model) writeWithCursor(b *strings.Builder, seg string, c int) {
	b.WriteString(seg[:c])
	n, _ := cluster(seg[c:])
	under := " "
	if n > 0 {
		under = seg[c : c+n]
	}
	b.WriteString(apply(m.styles.Cursor, under))
	b.WriteString(seg[c+n:])
}

// viewEmpty renders an empty buffer: the prompt, the cursor and the
// placeholder cut to one row.
func (m Model) viewEmpty(showCursor bool) string {
	s := apply(m.styles.Prompt, firstPrompt)
	ph := m.placeholder
	if tw := m.textWidth(); tw > 0 && ph != "" {
		ph = ansi.Truncate(ph, tw+1, "")
	}
	if showCursor {
		n, _ := cluster(ph)
		under := " "
		if n > 0 {
			under = ph[:n]
		}
		s += apply(m.styles.Cursor, under)
		ph = ph[n:]
	}
	if ph != "" {
		s += apply(m.styles.Placeholder, ph)
	}
	return s
}
