package markdown

import (
	"strings"
)

type align uint8

const (
	alignNone align = iota
	alignLeft
	alignCenter
	alignRight
)

type table struct {
	head   []string
	aligns []align
	rows   [][]string
}

// isTableStart reports whether head and delim open a GFM table: a row with
// a pipe, then a delimiter row ("---", ":--", "--:", ":-:" cells) with the
// same number of cells.
func isTableStart(head, delim string) bool {
	if strings.IndexByte(head, '|') < 0 || strings.IndexByte(delim, '|') < 0 ||
		indentOf(head) >= 4 || indentOf(delim) >= 4 {
		return false
	}
	cells := splitRow(delim)
	for _, c := range cells {
		if _, ok := parseAlign(c); !ok {
			return false
		}
	}
	return len(splitRow(head)) == len(cells)
}

func parseAlign(c string) (align, bool) {
	l, r := strings.HasPrefix(c, ":"), strings.HasSuffix(c, ":")
	d := strings.TrimSuffix(strings.TrimPrefix(c, ":"), ":")
	if d == "" || runEnd(d, 0, '-') != len(d) {
		return alignNone, false
	}
	switch {
	case l && r:
		return alignCenter, true
	case r:
		return alignRight, true
	case l:
		return alignLeft, true
	}
	return alignNone, true
}

// splitRow splits a table row at pipes that are not escaped; "\|" inside a
// cell is a literal pipe.
func splitRow(l string) []string {
	t := strings.Trim(l, " ")
	t = strings.TrimPrefix(t, "|")
	if strings.HasSuffix(t, "|") && !strings.HasSuffix(t, "\\|") {
		t = t[:len(t)-1]
	}
	var cells []string
	start := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '\\':
			i++
		case '|':
			cells = append(cells, cell(t[start:i]))
			start = i + 1
		}
	}
	return append(cells, cell(t[start:]))
}

func cell(s string) string {
	return strings.ReplaceAll(strings.Trim(s, " "), "\\|", "|")
}

func parseTable(lines []string, i int) (block, int) {
	t := &table{head: splitRow(lines[i])}
	for _, c := range splitRow(lines[i+1]) {
		a, _ := parseAlign(c)
		t.aligns = append(t.aligns, a)
	}
	for i += 2; i < len(lines); i++ {
		l := lines[i]
		if strings.IndexByte(l, '|') < 0 || interrupts(l) {
			break
		}
		row := splitRow(l)
		if len(row) > len(t.head) {
			row = row[:len(t.head)]
		}
		for len(row) < len(t.head) {
			row = append(row, "")
		}
		t.rows = append(t.rows, row)
	}
	return block{kind: bTable, table: t}, i
}

// minColumn is the narrowest a column may shrink to before the table is
// shown as records instead.
const minColumn = 3

// renderTable draws t in a box, cells wrapped to their column's width (see
// fitColumns). When the width leaves under minColumn cells a column, every
// row is shown as "Header: value" lines instead.
func (r *renderer) renderTable(t *table, c ctx) []string {
	st := r.st
	ncol := len(t.head)
	head := make([][]span, ncol)
	rows := make([][][]span, len(t.rows))
	nat := make([]int, ncol)  // widest line of each column
	minW := make([]int, ncol) // widest word of each column
	measure := func(sp []span, m mask) int {
		w := 0
		for _, l := range r.wrap(sp, 0, m) {
			w = max(w, l.w)
		}
		return w
	}
	for j, h := range t.head {
		head[j] = parseInline(h, 0, false)
		nat[j] = max(1, measure(head[j], bit(rTableHeader)))
		minW[j] = longestWord(head[j])
	}
	for i, row := range t.rows {
		rows[i] = make([][]span, ncol)
		for j, cl := range row {
			rows[i][j] = parseInline(cl, 0, false)
			nat[j] = max(nat[j], measure(rows[i][j], 0))
			minW[j] = max(minW[j], longestWord(rows[i][j]))
		}
	}

	colW := nat
	if c.width > 0 {
		avail := c.width - (3*ncol + 1)
		if avail < minColumn*ncol {
			return r.tableRecords(head, rows, c)
		}
		colW = fitColumns(nat, minW, avail)
	}

	g := st.g
	border := func(left, mid, right string) string {
		var b strings.Builder
		b.WriteString(left)
		for j, w := range colW {
			if j > 0 {
				b.WriteString(mid)
			}
			b.WriteString(strings.Repeat(g.h, w+2))
		}
		b.WriteString(right)
		return st.styled(bit(rTableBorder), b.String())
	}
	bar := st.styled(bit(rTableBorder), g.v)
	rowLines := func(cells [][]span, m mask) []string {
		wrapped := make([][]line, ncol)
		h := 1
		for j := range cells {
			wrapped[j] = r.wrap(cells[j], colW[j], c.base|m)
			h = max(h, len(wrapped[j]))
		}
		out := make([]string, h)
		for k := range out {
			var b strings.Builder
			b.WriteString(bar)
			for j := range cells {
				var l line
				if k < len(wrapped[j]) {
					l = wrapped[j][k]
				}
				pad := max(0, colW[j]-l.w)
				left := 0
				switch t.aligns[j] {
				case alignRight:
					left = pad
				case alignCenter:
					left = pad / 2
				}
				b.WriteByte(' ')
				b.WriteString(strings.Repeat(" ", left))
				b.WriteString(l.s)
				b.WriteString(strings.Repeat(" ", pad-left+1))
				b.WriteString(bar)
			}
			out[k] = b.String()
		}
		return out
	}

	out := []string{border(g.tl, g.tm, g.tr)}
	out = append(out, rowLines(head, bit(rTableHeader))...)
	if len(rows) > 0 {
		out = append(out, border(g.ml, g.mm, g.mr))
	}
	body := make([][]string, len(rows))
	tall := false
	for i := range rows {
		body[i] = rowLines(rows[i], 0)
		tall = tall || len(body[i]) > 1
	}
	for i, b := range body {
		if i > 0 && tall {
			// Rows of several lines need a rule to tell them apart.
			out = append(out, border(g.ml, g.mm, g.mr))
		}
		out = append(out, b...)
	}
	return append(out, border(g.bl, g.bm, g.br))
}

// tableRecords shows a table too wide for its columns as one record per
// row: "Header: value" lines, records separated by blank lines.
func (r *renderer) tableRecords(head [][]span, rows [][][]span, c ctx) []string {
	var out []string
	if len(rows) == 0 {
		for _, h := range head {
			out = append(out, strs(r.wrap(h, c.width, c.base|bit(rTableHeader)))...)
		}
		return out
	}
	for i, row := range rows {
		if i > 0 {
			out = append(out, "")
		}
		for j, cl := range row {
			sp := make([]span, 0, len(head[j])+len(cl)+2)
			for _, h := range head[j] {
				h.m |= bit(rTableHeader)
				sp = append(sp, h)
			}
			sp = append(sp, span{text: ":", m: bit(rTableHeader)}, span{text: " "})
			sp = append(sp, cl...)
			out = append(out, strs(r.wrap(sp, c.width, c.base))...)
		}
	}
	return out
}

// fitColumns shares avail cells between columns whose widest lines are
// nat and widest words minW.
//
// Columns keep their natural width when the table fits. Otherwise columns
// no wider than an even share keep their width, and the others split the
// rest in proportion to their natural widths. Then a column that would
// have to break a word is widened to its widest word if the other columns
// can pay for it without breaking words themselves or giving up more than
// a third of their width; else its words break (preferably after a "/" or
// "." or the like).
func fitColumns(nat, minW []int, avail int) []int {
	total := 0
	for _, n := range nat {
		total += n
	}
	if total <= avail {
		return append([]int(nil), nat...)
	}
	w := shareColumns(nat, avail)
	floor := make([]int, len(w))
	for k := range w {
		floor[k] = max(min(minW[k], nat[k]), w[k]*2/3)
	}
	gaveUp := make([]bool, len(w))
	for {
		// The column missing the fewest cells for its widest word.
		j, need := -1, 0
		for k := range w {
			if d := min(minW[k], nat[k]) - w[k]; d > 0 && !gaveUp[k] && (j < 0 || d < need) {
				j, need = k, d
			}
		}
		if j < 0 {
			return w
		}
		spare := 0
		for k := range w {
			if k != j {
				spare += max(0, w[k]-floor[k])
			}
		}
		if spare < need {
			gaveUp[j] = true
			continue
		}
		for ; need > 0; need-- {
			d := -1
			for k := range w {
				if k != j && w[k] > floor[k] && (d < 0 || w[k]-floor[k] > w[d]-floor[d]) {
					d = k
				}
			}
			w[d]--
			w[j]++
		}
	}
}

// shareColumns gives columns no wider than an even share of avail their
// natural width and splits the rest between the others in proportion to
// their natural widths. The widths add up to at most avail.
func shareColumns(nat []int, avail int) []int {
	w := append([]int(nil), nat...)
	fixed := make([]bool, len(nat))
	rem, left := avail, len(nat)
	for changed := true; changed && left > 0; {
		changed = false
		share := rem / left
		for j, n := range nat {
			if !fixed[j] && n <= share {
				fixed[j] = true
				rem -= n
				left--
				changed = true
			}
		}
	}
	sum := 0
	for j, n := range nat {
		if !fixed[j] {
			sum += n
		}
	}
	used := 0
	for j, n := range nat {
		if fixed[j] {
			continue
		}
		w[j] = max(1, n*rem/max(1, sum))
		used += w[j]
	}
	// Hand out what rounding left over, to the columns furthest below
	// their natural width, or take back what the one-cell minimum added.
	for used < rem {
		best := -1
		for j := range nat {
			if !fixed[j] && w[j] < nat[j] && (best < 0 || nat[j]-w[j] > nat[best]-w[best]) {
				best = j
			}
		}
		if best < 0 {
			break
		}
		w[best]++
		used++
	}
	for used > rem {
		best := -1
		for j := range nat {
			if !fixed[j] && w[j] > 1 && (best < 0 || w[j] > w[best]) {
				best = j
			}
		}
		if best < 0 {
			break
		}
		w[best]--
		used--
	}
	return w
}
