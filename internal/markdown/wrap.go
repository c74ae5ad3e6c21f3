package markdown

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Widths are measured the way ansi.StringWidth measures them, so that a
// line this package calls n cells wide is n cells wide to every caller that
// checks: grapheme cluster by cluster, where an ASCII character followed by
// a combining mark or variation selector is one cluster with it ("&" with
// U+FE0F is two cells). Text reaching these functions has been sanitised
// (no control characters, valid UTF-8), so a run of ASCII is exactly one
// cell a byte, which is the fast path.

// textWidth returns the display width of sanitised text without escapes.
func textWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// fitPrefix returns how many bytes of s fit in avail cells, and their width.
// It never splits a grapheme cluster.
func fitPrefix(s string, avail int) (n, w int) {
	for n < len(s) {
		cl, cw := cluster(s[n:])
		if w+cw > avail {
			break
		}
		w += cw
		n += cl
	}
	return n, w
}

// cluster returns the length and width of the first grapheme cluster of s.
func cluster(s string) (int, int) {
	if s[0] < 0x80 && (len(s) == 1 || s[1] < 0x80) {
		return 1, 1
	}
	cl, cw := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
	if cl == "" {
		return 1, 1
	}
	return len(cl), cw
}

// firstCluster returns the length in bytes of the first grapheme cluster
// of s.
func firstCluster(s string) int {
	if s == "" {
		return 0
	}
	n, _ := cluster(s)
	return n
}

// cutToWidth shortens s to at most width cells, ending it with ell (of
// width ellW) when anything was cut. It returns the result and its width.
func cutToWidth(s string, width int, ell string, ellW int) (string, int) {
	w := textWidth(s)
	if w <= width {
		return s, w
	}
	if ellW > width {
		n, nw := fitPrefix(s, width)
		return s[:n], nw
	}
	n, nw := fitPrefix(s, width-ellW)
	return s[:n] + ell, nw + ellW
}

// line is one rendered line (escapes included) and its display width.
type line struct {
	s string
	w int
}

// frag is a piece of text in one set of roles.
type frag struct {
	text string
	m    mask
	w    int
}

// wrapper fills lines greedily, a word at a time. A word is a run of
// fragments with no space between them (so "**bold**," stays one word);
// spaces between words collapse to one and are dropped at line breaks. A
// word wider than the whole line is cut between grapheme clusters,
// starting on the current line.
type wrapper struct {
	st     *styles
	width  int
	lines  []line
	cur    []frag
	curW   int
	spc    frag
	hasSpc bool
	word   []frag
	wordW  int
}

// wrap lays out spans in lines at most width cells wide (width <= 0: only
// hard breaks end lines), every piece styled with base plus its own roles.
// It returns at least one line.
func (r *renderer) wrap(spans []span, width int, base mask) []line {
	w := &r.wr
	w.st, w.width, w.lines = r.st, width, nil
	w.cur, w.word, w.curW, w.wordW, w.hasSpc = w.cur[:0], w.word[:0], 0, 0, false
	for _, sp := range spans {
		if sp.kind == spanBreak {
			w.hardBreak()
			continue
		}
		m := base | sp.m
		t := sp.text
		for t != "" {
			if t[0] == ' ' {
				j := 1
				for j < len(t) && t[j] == ' ' {
					j++
				}
				if sp.kind == spanCode {
					w.space(t[:j], m)
				} else {
					w.space(" ", m)
				}
				t = t[j:]
				continue
			}
			j := strings.IndexByte(t, ' ')
			if j < 0 {
				j = len(t)
			}
			w.frag(t[:j], m)
			t = t[j:]
		}
	}
	w.finishWord()
	if len(w.cur) > 0 || len(w.lines) == 0 {
		w.flush()
	}
	lines := w.lines
	w.lines = nil
	return lines
}

func (w *wrapper) space(t string, m mask) {
	w.finishWord()
	if !w.hasSpc {
		w.spc = frag{text: t, m: m, w: len(t)}
		w.hasSpc = true
	}
}

func (w *wrapper) frag(t string, m mask) {
	fw := textWidth(t)
	w.word = append(w.word, frag{text: t, m: m, w: fw})
	w.wordW += fw
}

func (w *wrapper) hardBreak() {
	w.finishWord()
	w.flush()
	w.hasSpc = false
}

func (w *wrapper) finishWord() {
	if len(w.word) == 0 {
		return
	}
	sw := 0
	if w.hasSpc && len(w.cur) > 0 {
		sw = w.spc.w
	}
	switch {
	case w.width <= 0 || w.curW+sw+w.wordW <= w.width:
		if sw > 0 {
			w.cur = append(w.cur, w.spc)
		}
		w.cur = append(w.cur, w.word...)
		w.curW += sw + w.wordW
	case w.wordW <= w.width:
		w.flush()
		w.cur = append(w.cur, w.word...)
		w.curW = w.wordW
	default:
		// The word must be broken. Start it on this line when that
		// leaves a useful piece here (or it is CJK, which breaks
		// anywhere), on the next otherwise.
		if len(w.cur) > 0 {
			room := w.width - w.curW - sw
			if room > 0 && (room >= w.width/2 || startsWide(w.word[0].text)) {
				if sw > 0 {
					w.cur = append(w.cur, w.spc)
				}
				w.curW += sw
			} else {
				w.flush()
			}
		}
		for _, f := range w.word {
			w.split(f)
		}
	}
	w.word = w.word[:0]
	w.wordW = 0
	w.hasSpc = false
}

// startsWide reports whether t begins with a double-width cluster.
func startsWide(t string) bool {
	if t == "" || t[0] < 0x80 {
		return false
	}
	_, w := ansi.FirstGraphemeCluster(t, ansi.GraphemeWidth)
	return w > 1
}

// split places f on as many lines as it needs, preferring to break paths
// and URLs after a separator.
func (w *wrapper) split(f frag) {
	t := f.text
	for t != "" {
		n, fw := fitPrefix(t, w.width-w.curW)
		if n > 0 && n < len(t) {
			if k := breakAfter(t[:n]); k > 0 {
				n, fw = k, textWidth(t[:k])
			}
		}
		if n == 0 {
			if len(w.cur) == 0 {
				// One cluster wider than the whole line (a wide
				// character at width 1): it cannot be shown.
				t = t[firstCluster(t):]
				continue
			}
			w.flush()
			continue
		}
		w.cur = append(w.cur, frag{text: t[:n], m: f.m, w: fw})
		w.curW += fw
		t = t[n:]
		if t != "" {
			w.flush()
		}
	}
}

// breakAfter returns the index just after the last separator in the second
// half of t, or 0.
func breakAfter(t string) int {
	for k := len(t) - 1; k >= len(t)/2 && k > 0; k-- {
		switch t[k] {
		case '/', '-', '_', '.', ',', '?', '&', '=', '#', ':', ';':
			return k + 1
		}
	}
	return 0
}

// flush renders the current line, one escape sequence per run of
// fragments in the same roles.
func (w *wrapper) flush() {
	var b strings.Builder
	n := 0
	for _, f := range w.cur {
		n += len(f.text) + 16
	}
	b.Grow(n)
	for i := 0; i < len(w.cur); {
		m := w.cur[i].m
		j := i + 1
		for j < len(w.cur) && w.cur[j].m == m {
			j++
		}
		open := w.st.open(&b, m)
		for _, f := range w.cur[i:j] {
			b.WriteString(f.text)
		}
		if open {
			b.WriteString(reset)
		}
		i = j
	}
	w.lines = append(w.lines, line{s: b.String(), w: w.curW})
	w.cur = w.cur[:0]
	w.curW = 0
}

// longestWord returns the width of the widest word in spans, grouping
// pieces as the wrapper does: the narrowest the spans can wrap to without
// breaking a word.
func longestWord(spans []span) int {
	best, cur := 0, 0
	for _, sp := range spans {
		if sp.kind == spanBreak {
			cur = 0
			continue
		}
		for t := sp.text; t != ""; {
			j := strings.IndexByte(t, ' ')
			if j == 0 {
				cur = 0
				t = t[1:]
				continue
			}
			if j < 0 {
				j = len(t)
			}
			cur += textWidth(t[:j])
			best = max(best, cur)
			t = t[j:]
		}
	}
	return best
}

// strs returns the text of lines.
func strs(ls []line) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.s
	}
	return out
}
