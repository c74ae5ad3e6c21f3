// Package input is the prompt editor of ponder's terminal interface: a
// multi-line text buffer with soft wrapping, grapheme-aware cursor motion,
// readline-style editing keys and a history of submitted prompts.
//
// It follows the bubbletea component pattern. [Model] is a value: Update
// returns the changed copy, and the parent stores it back. Copies share
// their line storage, so only the latest copy may be used — the same rule
// as for the bubbles components. Start from [New]; a zero Model works but
// is blurred and draws no cursor.
//
// A parent typically asks [Model.Consumes] whether a key press is the
// editor's, passes it to [Model.Update] if so, and handles [Submitted]:
//
//	case tea.KeyPressMsg:
//		if m.input.Consumes(msg) {
//			m.input, cmd = m.input.Update(msg)
//			return m, cmd
//		}
//	case tea.PasteMsg:
//		m.input, cmd = m.input.Update(msg)
//	case input.Submitted:
//		// send msg.Text
//
// Positions are in grapheme clusters, widths in terminal cells as the
// charmbracelet/x/ansi package measures them. The package has no init
// work of its own.
//
// It is ponder's own rather than charm.land/bubbles/v2/textarea (v2.2.1),
// measured with the benchmarks in bench_test.go: the textarea moves and
// deletes by rune, so Backspace after "👍🏽" leaves "🏽" where this editor
// removes the cluster; it keeps at most 10,000 lines of a paste; it has no
// prompt history; typing into a 200-line buffer cost 15 ms a key (1.4 µs
// here) and into an empty one 1 ms a key with View (0.4 µs here); and it
// brings atotto/clipboard and go-runewidth, 0.2 to 0.35 ms of init work
// at every start, and 1.7 MB more in a minimal binary.
package input

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Submitted is the message the command returned by [Model.Update] yields
// when the user presses Enter on a buffer that is not blank. By the time it
// arrives the Model has already emptied its buffer and added Text to its
// history.
type Submitted struct{ Text string }

// submit returns the command that reports a submission.
func submit(text string) tea.Cmd {
	return func() tea.Msg { return Submitted{Text: text} }
}

// line is one logical line of the buffer together with its soft wrapping.
type line struct {
	text string
	rows []int // byte offsets where its screen rows start; rows[0] == 0
}

// Model is the editor state. See the package documentation for the copy
// rules.
type Model struct {
	lines []line // never empty once made by New
	row   int    // line of the cursor
	off   int    // byte offset of the cursor in lines[row].text, on a cluster boundary
	goal  int    // column kept across Up and Down, or -1

	width     int // total width including the prompt; 0 means no wrapping
	maxHeight int // rows shown at most; 0 means no limit
	top       int // first screen row shown when maxHeight cuts the view

	focused     bool
	virtual     bool // draw the cursor inside View
	placeholder string
	styles      Styles

	history []string // oldest first
	hist    int      // entry being shown; len(history) means the draft
	draft   string   // the unsent text put aside while browsing history
}

// New returns an empty, focused editor that draws its own cursor and does
// not wrap until [Model.SetWidth] is called.
func New() Model {
	return Model{
		lines:   []line{{rows: []int{0}}},
		goal:    -1,
		focused: true,
		virtual: true,
		styles:  DefaultStyles(),
	}
}

// textWidth is the number of cells a row may fill before it wraps, not
// counting the prompt and the cell kept for the caret. Zero means no
// wrapping.
func (m Model) textWidth() int {
	if m.width <= 0 {
		return 0
	}
	return max(m.width-promptWidth-1, 1)
}

// SetWidth sets the width in cells that View may use, prompt included, and
// re-wraps the buffer. Zero or less turns wrapping off.
func (m *Model) SetWidth(w int) {
	m.ensure()
	if w < 0 {
		w = 0
	}
	if w == m.width {
		return
	}
	m.width = w
	for i := range m.lines {
		m.relayout(i, 0)
	}
	m.scroll()
}

// Width returns the width set by SetWidth.
func (m Model) Width() int { return m.width }

// SetMaxHeight limits View to n screen rows; the shown window follows the
// cursor. Zero or less removes the limit, which is the default.
func (m *Model) SetMaxHeight(n int) {
	m.maxHeight = max(n, 0)
	m.scroll()
}

// Value returns the buffer's text, lines joined with "\n".
func (m Model) Value() string {
	switch len(m.lines) {
	case 0:
		return ""
	case 1:
		return m.lines[0].text
	}
	n := len(m.lines) - 1
	for _, l := range m.lines {
		n += len(l.text)
	}
	var b strings.Builder
	b.Grow(n)
	for i, l := range m.lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.text)
	}
	return b.String()
}

// Empty reports whether the buffer holds no text at all.
func (m Model) Empty() bool {
	return len(m.lines) == 0 || (len(m.lines) == 1 && m.lines[0].text == "")
}

// SetValue replaces the buffer with s, cleaned as pasted text is, and puts
// the cursor at the end. It also stops any history browsing.
func (m *Model) SetValue(s string) {
	m.setText(clean(s))
	m.hist, m.draft = len(m.history), ""
}

// Reset empties the buffer and stops any history browsing. The history
// itself is kept.
func (m *Model) Reset() {
	m.setText("")
	m.hist, m.draft = len(m.history), ""
}

// Cursor returns the cursor position in the logical buffer: the line (from
// 0) and the number of grapheme clusters before it on that line.
func (m Model) Cursor() (row, col int) {
	if len(m.lines) == 0 {
		return 0, 0
	}
	return m.row, clusters(m.lines[m.row].text[:m.off])
}

// Height returns the number of screen rows View needs at present.
func (m Model) Height() int {
	n := m.totalRows()
	if m.maxHeight > 0 && n > m.maxHeight {
		return m.maxHeight
	}
	return n
}

// Focus makes the editor accept input and show its cursor.
func (m *Model) Focus() { m.focused = true }

// Blur makes the editor ignore input and hide its cursor.
func (m *Model) Blur() { m.focused = false }

// Focused reports whether the editor accepts input.
func (m Model) Focused() bool { return m.focused }

// SetPlaceholder sets the text shown, faint, while the buffer is empty.
func (m *Model) SetPlaceholder(s string) { m.placeholder = clean(strings.ReplaceAll(s, "\n", " ")) }

// totalRows counts the screen rows of the whole buffer.
func (m Model) totalRows() int {
	n := 0
	for _, l := range m.lines {
		n += len(l.rows)
	}
	return max(n, 1)
}

// cursorRow returns the screen row of the cursor counted from the top of
// the buffer.
func (m Model) cursorRow() int {
	if len(m.lines) == 0 {
		return 0
	}
	y := 0
	for _, l := range m.lines[:m.row] {
		y += len(l.rows)
	}
	return y + rowOf(m.lines[m.row].rows, m.off)
}

// scroll moves the shown window so that it holds the cursor and no empty
// space below the buffer.
func (m *Model) scroll() {
	if m.maxHeight <= 0 {
		m.top = 0
		return
	}
	y := m.cursorRow()
	if y < m.top {
		m.top = y
	}
	if y >= m.top+m.maxHeight {
		m.top = y - m.maxHeight + 1
	}
	m.top = max(min(m.top, m.totalRows()-m.maxHeight), 0)
}

// ensure makes a zero Model usable.
func (m *Model) ensure() {
	if len(m.lines) == 0 {
		m.lines = []line{{rows: []int{0}}}
		m.row, m.off, m.goal = 0, 0, -1
	}
}

// setText replaces the buffer with text, which must already be clean, and
// puts the cursor at its end.
func (m *Model) setText(text string) {
	parts := strings.Split(text, "\n")
	m.lines = make([]line, len(parts))
	for i, p := range parts {
		m.lines[i].text = p
		m.relayout(i, 0)
	}
	m.row = len(m.lines) - 1
	m.off = len(m.lines[m.row].text)
	m.goal = -1
	m.scroll()
}

// relayout re-wraps line i, keeping its first from+1 row starts.
func (m *Model) relayout(i, from int) {
	l := &m.lines[i]
	l.rows = layout(l.rows, l.text, m.textWidth(), from, nil)
}

// relayoutEdit re-wraps line i after its text changed from byte offset at
// on. When the change was confined to the old bytes [at, end), which now
// take shift more bytes, set keep: the rows after it are then reused as
// soon as the wrapping falls in step with them again.
//
// Rows more than two before the change cannot move, since a row's end
// depends at most on the first cluster of the row after next.
func (m *Model) relayoutEdit(i, at, end, shift int, keep bool) {
	l := &m.lines[i]
	from := max(rowOf(l.rows, at)-2, 0)
	var t *tail
	if keep {
		if k := rowOf(l.rows, end); k+1 < len(l.rows) {
			t = &tail{from: end + shift, shift: shift, rows: slices.Clone(l.rows[k+1:])}
		}
	}
	l.rows = layout(l.rows, l.text, m.textWidth(), from, t)
}
