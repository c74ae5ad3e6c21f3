package input

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// insert puts clean text at the cursor and moves the cursor after it.
func (m *Model) insert(s string) {
	if s == "" {
		return
	}
	l := &m.lines[m.row]
	at := m.off
	if strings.IndexByte(s, '\n') < 0 {
		l.text = l.text[:at] + s + l.text[at:]
		m.relayoutEdit(m.row, at, at, len(s), true)
		m.off = m.snapAfterInsert(m.row, at+len(s))
		return
	}
	parts := strings.Split(s, "\n")
	tail := l.text[at:]
	l.text = l.text[:at] + parts[0]
	m.relayoutEdit(m.row, at, at, 0, false)
	added := make([]line, len(parts)-1)
	for j, p := range parts[1:] {
		added[j].text = p
	}
	added[len(added)-1].text += tail
	m.lines = slices.Insert(m.lines, m.row+1, added...)
	for i := m.row + 1; i <= m.row+len(added); i++ {
		m.relayout(i, 0)
	}
	m.row += len(added)
	m.off = m.snap(m.row, len(parts[len(parts)-1]))
}

// remove deletes the text from (r1, o1) up to (r2, o2), which must not
// come before it, and leaves the cursor where the span began (or after
// the cluster the join created, when the text on both sides merges).
func (m *Model) remove(r1, o1, r2, o2 int) {
	if r1 == r2 && o1 == o2 {
		return
	}
	l := &m.lines[r1]
	l.text = l.text[:o1] + m.lines[r2].text[o2:]
	if r2 > r1 {
		m.lines = slices.Delete(m.lines, r1+1, r2+1)
	}
	m.relayoutEdit(r1, o1, o2, o1-o2, r1 == r2)
	m.row, m.off = r1, m.snap(r1, o1)
}

// snap moves an offset that an edit left inside a grapheme cluster (say, a
// letter typed before a combining mark) to the end of that cluster.
func (m *Model) snap(i, off int) int {
	l := m.lines[i]
	p := l.rows[rowOf(l.rows, off)]
	for p < off {
		n, _ := cluster(l.text[p:])
		p += n
	}
	return p
}

// snapAfterInsert is snap for the offset just after inserted text, which
// is a cluster boundary without further ado when it ends the line or
// separates two ASCII characters.
func (m *Model) snapAfterInsert(i, off int) int {
	t := m.lines[i].text
	if off == len(t) || t[off] < utf8.RuneSelf && t[off-1] < utf8.RuneSelf {
		return off
	}
	return m.snap(i, off)
}

// prevBoundary returns the start of the cluster before offset off of line
// i; off must be greater than zero.
func (m *Model) prevBoundary(i, off int) int {
	l := m.lines[i]
	p := l.rows[rowOf(l.rows, off-1)]
	for {
		n, _ := cluster(l.text[p:])
		if p+n >= off {
			return p
		}
		p += n
	}
}

// nextBoundary returns the end of the cluster at offset off of line i.
func (m *Model) nextBoundary(i, off int) int {
	n, _ := cluster(m.lines[i].text[off:])
	return off + n
}

// wordish reports whether a cluster belongs to a word: letters, digits,
// the underscore, and any other character beyond ASCII that is not a space
// or punctuation.
func wordish(c string) bool {
	r, _ := utf8.DecodeRuneInString(c)
	if r < utf8.RuneSelf {
		return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	return !unicode.IsSpace(r) && !unicode.IsPunct(r)
}

// wordStart returns the offset of the start of the word before off in
// text: first what is not a word is skipped, then the word.
func wordStart(text string, off int) int {
	var starts []int
	var word []bool
	for p := 0; p < off; {
		n, _ := cluster(text[p:])
		starts = append(starts, p)
		word = append(word, wordish(text[p:p+n]))
		p += n
	}
	j := len(starts) - 1
	for j >= 0 && !word[j] {
		j--
	}
	for j >= 0 && word[j] {
		j--
	}
	if j+1 < len(starts) {
		return starts[j+1]
	}
	return off
}

// wordEnd returns the offset of the end of the word after off in text.
func wordEnd(text string, off int) int {
	p := off
	for inWord := false; p < len(text); {
		n, _ := cluster(text[p:])
		w := wordish(text[p : p+n])
		if inWord && !w {
			break
		}
		inWord = inWord || w
		p += n
	}
	return p
}

// The editing commands. Each acts at the cursor.

func (m *Model) backspace() {
	switch {
	case m.off > 0:
		m.remove(m.row, m.prevBoundary(m.row, m.off), m.row, m.off)
	case m.row > 0:
		m.remove(m.row-1, len(m.lines[m.row-1].text), m.row, 0)
	}
}

func (m *Model) deleteForward() {
	switch {
	case m.off < len(m.lines[m.row].text):
		m.remove(m.row, m.off, m.row, m.nextBoundary(m.row, m.off))
	case m.row < len(m.lines)-1:
		m.remove(m.row, m.off, m.row+1, 0)
	}
}

func (m *Model) deleteWordBackward() {
	if m.off == 0 {
		m.backspace()
		return
	}
	m.remove(m.row, wordStart(m.lines[m.row].text, m.off), m.row, m.off)
}

func (m *Model) deleteWordForward() {
	if m.off == len(m.lines[m.row].text) {
		m.deleteForward()
		return
	}
	m.remove(m.row, m.off, m.row, wordEnd(m.lines[m.row].text, m.off))
}

// killToStart deletes to the start of the line; at the start it joins the
// line to the one above, so that repeating it keeps clearing.
func (m *Model) killToStart() {
	if m.off == 0 {
		m.backspace()
		return
	}
	m.remove(m.row, 0, m.row, m.off)
}

// killToEnd deletes to the end of the line; at the end it joins the next
// line to this one.
func (m *Model) killToEnd() {
	if n := len(m.lines[m.row].text); m.off < n {
		m.remove(m.row, m.off, m.row, n)
		return
	}
	m.deleteForward()
}

func (m *Model) left() {
	switch {
	case m.off > 0:
		m.off = m.prevBoundary(m.row, m.off)
	case m.row > 0:
		m.row--
		m.off = len(m.lines[m.row].text)
	}
}

func (m *Model) right() {
	switch {
	case m.off < len(m.lines[m.row].text):
		m.off = m.nextBoundary(m.row, m.off)
	case m.row < len(m.lines)-1:
		m.row++
		m.off = 0
	}
}

func (m *Model) wordLeft() {
	if m.off == 0 {
		m.left()
		return
	}
	m.off = wordStart(m.lines[m.row].text, m.off)
}

func (m *Model) wordRight() {
	if m.off == len(m.lines[m.row].text) {
		m.right()
		return
	}
	m.off = wordEnd(m.lines[m.row].text, m.off)
}

// vertical moves the cursor one screen row up (dir < 0) or down, keeping
// its column as far as the target row allows. It reports false when there
// is no row in that direction.
func (m *Model) vertical(dir int) bool {
	l := m.lines[m.row]
	k := rowOf(l.rows, m.off)
	if m.goal < 0 {
		m.goal = width(l.text[l.rows[k]:m.off])
	}
	row := m.row
	switch {
	case dir < 0 && k > 0:
		k--
	case dir < 0 && row > 0:
		row--
		k = len(m.lines[row].rows) - 1
	case dir > 0 && k < len(l.rows)-1:
		k++
	case dir > 0 && row < len(m.lines)-1:
		row++
		k = 0
	default:
		return false
	}
	t := m.lines[row]
	m.row = row
	m.off = offsetAtColumn(t.text, t.rows[k], rowEnd(t.rows, k, t.text), m.goal, k == len(t.rows)-1)
	return true
}
