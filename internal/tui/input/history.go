package input

import "strings"

// AddHistory appends s to the history, unless it is blank or equal to the
// newest entry. Any history browsing stops.
func (m *Model) AddHistory(s string) {
	if strings.TrimSpace(s) != "" && (len(m.history) == 0 || m.history[len(m.history)-1] != s) {
		m.history = append(m.history, s)
	}
	m.hist, m.draft = len(m.history), ""
}

// History returns a copy of the history, oldest entry first.
func (m Model) History() []string {
	return append([]string(nil), m.history...)
}

// SetHistory replaces the history with a copy of h, oldest entry first.
// Any history browsing stops.
func (m *Model) SetHistory(h []string) {
	m.history = append(m.history[:0:0], h...)
	m.hist, m.draft = len(m.history), ""
}

// older shows the entry before the one shown, putting the draft aside when
// leaving it. The cursor goes to the end of an entry that fits on one row
// and to the start of a longer one, so that pressing Up again goes on
// through the history. It reports false at the oldest entry.
func (m *Model) older() bool {
	if m.hist <= 0 || len(m.history) == 0 {
		return false
	}
	if m.hist >= len(m.history) {
		m.hist = len(m.history)
		m.draft = m.Value()
	}
	m.hist--
	m.setText(clean(m.history[m.hist]))
	if m.totalRows() > 1 {
		m.row, m.off = 0, 0
		m.scroll()
	}
	return true
}

// newer shows the entry after the one shown, or the draft after the newest
// entry, with the cursor at the end. It reports false when the draft is
// already shown.
func (m *Model) newer() bool {
	if m.hist >= len(m.history) {
		return false
	}
	m.hist++
	if m.hist == len(m.history) {
		m.setText(m.draft)
		m.draft = ""
	} else {
		m.setText(clean(m.history[m.hist]))
	}
	return true
}
