package input

import (
	"slices"
	"sort"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// cluster returns the length in bytes and the display width in cells of the
// grapheme cluster that starts s. It returns 0, 0 for an empty string.
//
// Text made of ASCII, kana and common CJK ideographs is measured without
// the Unicode segmenter: no cluster spans two such characters, and their
// widths are fixed (TestClusterFastPath checks both against the segmenter).
func cluster(s string) (n, w int) {
	if s == "" {
		return 0, 0
	}
	if s[0] < utf8.RuneSelf {
		if len(s) == 1 || s[1] < utf8.RuneSelf {
			if s[0] < 0x20 || s[0] == 0x7f {
				return 1, 0
			}
			return 1, 1
		}
	} else if r, size := utf8.DecodeRuneInString(s); wideSimple(r) {
		if len(s) == size || s[size] < utf8.RuneSelf && s[size] >= 0x20 {
			return size, 2
		}
		if r2, _ := utf8.DecodeRuneInString(s[size:]); wideSimple(r2) {
			return size, 2
		}
	}
	c, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
	if c == "" {
		return 1, 0
	}
	return len(c), w
}

// wideSimple reports whether r is a hiragana, katakana or CJK unified
// ideograph: two cells wide and never joined to a neighbour of its kind or
// to ASCII in one cluster. The combining kana voicing marks are excluded.
func wideSimple(r rune) bool {
	return r >= 0x4e00 && r <= 0x9fff || r >= 0x3041 && r <= 0x3096 || r >= 0x30a1 && r <= 0x30fa
}

// width returns the display width of s in cells.
func width(s string) int {
	w := 0
	for s != "" {
		n, cw := cluster(s)
		w += cw
		s = s[n:]
	}
	return w
}

// clusters returns the number of grapheme clusters in s.
func clusters(s string) int {
	c := 0
	for s != "" {
		n, _ := cluster(s)
		c++
		s = s[n:]
	}
	return c
}

// layout soft-wraps text into screen rows of at most tw cells and returns
// the byte offset at which each row starts (the first is always 0). A tw of
// zero or less disables wrapping.
//
// Rows break after a space when the next word does not fit, and inside a
// word only when the word alone is wider than a row. One extra cell to the
// right of tw is kept free: the caret may stand there at the end of a full
// row, and a space that reaches the edge hangs there instead of starting
// the next row. A row is thus never wider than tw+1 cells.
//
// rows is reused as storage. Its first from+1 starts are taken as still
// valid and the work resumes from rows[from], which lets an edit re-wrap
// only the rows it can affect. With a non-nil tail the work also stops as
// soon as a row starts where an old one did in the unchanged end of the
// text, whose rows are then copied.
func layout(rows []int, text string, tw, from int, tail *tail) []int {
	if tw <= 0 || from < 0 || from >= len(rows) || rows[from] > len(text) {
		rows = append(rows[:0], 0)
		if tw <= 0 {
			return rows
		}
		from, tail = 0, nil
	}
	rows = rows[:from+1]
	rs := rows[from] // start of the row being filled
	w := 0           // its width so far
	brk, wb := -1, 0 // offset just after its last space, and the width there
	for i := rs; i < len(text); {
		var n, gw int
		if c := text[i]; c >= 0x20 && c < 0x7f && (i+1 == len(text) || text[i+1] < utf8.RuneSelf) {
			n, gw = 1, 1
		} else {
			n, gw = cluster(text[i:])
		}
		space := n == 1 && text[i] == ' '
		switch {
		case w+gw <= tw:
			w += gw
			i += n
			if space {
				brk, wb = i, w
			}
			continue
		case space && w == tw:
			i += n
			rs, w = i, 0
		case brk > rs:
			rs, w = brk, w-wb
		case w == 0:
			// Wider than a whole row: let it overflow rather than loop.
			w += gw
			i += n
			continue
		default:
			rs, w = i, 0
		}
		rows = append(rows, rs)
		brk = -1
		if tail != nil && rs >= tail.from {
			if j, ok := slices.BinarySearch(tail.rows, rs-tail.shift); ok {
				for _, r := range tail.rows[j+1:] {
					rows = append(rows, r+tail.shift)
				}
				return rows
			}
		}
	}
	return rows
}

// tail describes the part of a line an edit left alone: from byte offset
// from on, the new text equals the old one moved by shift bytes, and rows
// holds the old row starts there.
type tail struct {
	from, shift int
	rows        []int
}

// rowOf returns the index of the row that holds byte offset off: the last
// row starting at or before it.
func rowOf(rows []int, off int) int {
	k := sort.SearchInts(rows, off+1) - 1
	if k < 0 {
		return 0
	}
	return k
}

// rowEnd returns the byte offset where row k of a line ends.
func rowEnd(rows []int, k int, text string) int {
	if k+1 < len(rows) {
		return rows[k+1]
	}
	return len(text)
}

// offsetAtColumn returns the offset of the cluster boundary in text[start:end]
// whose column is the largest one not beyond col. With last false the end
// itself is excluded, since it belongs to the next row.
func offsetAtColumn(text string, start, end, col int, last bool) int {
	i, w := start, 0
	for i < end {
		n, cw := cluster(text[i:end])
		if w+cw > col || (!last && i+n >= end) {
			break
		}
		w += cw
		i += n
	}
	return i
}
