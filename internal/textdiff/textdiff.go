// Package textdiff compares two texts line by line: the edits that turn one
// into the other, unified diffs of them for people and models, and which
// lines of the new text are new. Approvals use it to show what an edit or
// a revised plan changes. It depends on the standard library only.
package textdiff

import (
	"fmt"
	"strings"
)

// Op is what an edit does to one line.
type Op byte

// The kinds of line in an edit script.
const (
	Keep   Op = ' '
	Delete Op = '-'
	Insert Op = '+'
)

// Line is one line of an edit script. Old and New are the 1-based line
// numbers in each text (0 where the line is not in that text).
type Line struct {
	Op       Op
	Text     string
	Old, New int
}

// maxCells bounds the work of the exact comparison; longer texts fall back
// to a coarser one that still yields a correct (if not minimal) script.
const maxCells = 4 << 20

// Lines splits text into lines without their line ends. A final line end
// does not start another line; "" has no lines.
func Lines(text string) []string {
	if text == "" {
		return nil
	}
	ls := strings.Split(text, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// Compare returns the edit script that turns old into new: every line of
// both, in order, kept, deleted or inserted. Lines shared at both ends
// are trimmed first; the middle is compared exactly by longest common
// subsequence when it is small enough, otherwise deleted and inserted as
// one block.
func Compare(old, new string) []Line {
	a, b := Lines(old), Lines(new)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	out := make([]Line, 0, len(a)+len(b))
	for i := 0; i < pre; i++ {
		out = append(out, Line{Op: Keep, Text: a[i], Old: i + 1, New: i + 1})
	}
	out = append(out, middle(a[pre:len(a)-suf], b[pre:len(b)-suf], pre, pre)...)
	for i := 0; i < suf; i++ {
		oi, ni := len(a)-suf+i, len(b)-suf+i
		out = append(out, Line{Op: Keep, Text: a[oi], Old: oi + 1, New: ni + 1})
	}
	return out
}

// middle compares the differing middle parts; oOff and nOff are the
// numbers of lines before them.
func middle(a, b []string, oOff, nOff int) []Line {
	var out []Line
	if (len(a)+1)*(len(b)+1) > maxCells {
		for i, t := range a {
			out = append(out, Line{Op: Delete, Text: t, Old: oOff + i + 1})
		}
		for j, t := range b {
			out = append(out, Line{Op: Insert, Text: t, New: nOff + j + 1})
		}
		return out
	}
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:], in one flat table.
	w := len(b) + 1
	lcs := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out = append(out, Line{Op: Keep, Text: a[i], Old: oOff + i + 1, New: nOff + j + 1})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[(i+1)*w+j] >= lcs[i*w+j+1]):
			out = append(out, Line{Op: Delete, Text: a[i], Old: oOff + i + 1})
			i++
		default:
			out = append(out, Line{Op: Insert, Text: b[j], New: nOff + j + 1})
			j++
		}
	}
	return out
}

// Changed reports whether the script changes anything.
func Changed(script []Line) bool {
	for _, l := range script {
		if l.Op != Keep {
			return true
		}
	}
	return false
}

// NewLines returns the 1-based numbers of the lines of the new text that
// the old one did not have (inserted or changed lines).
func NewLines(old, new string) []int {
	var out []int
	for _, l := range Compare(old, new) {
		if l.Op == Insert {
			out = append(out, l.New)
		}
	}
	return out
}

// Count returns how many lines the script inserts and deletes.
func Count(script []Line) (added, removed int) {
	for _, l := range script {
		switch l.Op {
		case Insert:
			added++
		case Delete:
			removed++
		}
	}
	return added, removed
}

// Unified formats old → new as a unified diff with context lines of
// context around each change, under the file names given (no header when
// both are ""). Equal texts give "".
func Unified(oldName, newName, old, new string, context int) string {
	script := Compare(old, new)
	if !Changed(script) {
		return ""
	}
	var b strings.Builder
	if oldName != "" || newName != "" {
		fmt.Fprintf(&b, "--- %s\n+++ %s\n", oldName, newName)
	}
	for _, h := range hunks(script, context) {
		oldBefore, newBefore := 0, 0
		for _, l := range script[:h[0]] {
			if l.Old > 0 {
				oldBefore++
			}
			if l.New > 0 {
				newBefore++
			}
		}
		writeHunk(&b, script[h[0]:h[1]], oldBefore, newBefore)
	}
	return b.String()
}

// hunks groups the script into ranges [start, end) that hold changes and
// up to context kept lines around them; ranges closer than twice the
// context merge.
func hunks(script []Line, context int) [][2]int {
	var out [][2]int
	for i := 0; i < len(script); i++ {
		if script[i].Op == Keep {
			continue
		}
		start := max(0, i-context)
		end := i + 1
		for end < len(script) {
			// Extend over changes and short runs of kept lines.
			k := end
			for k < len(script) && script[k].Op == Keep {
				k++
			}
			if k == len(script) || k-end > 2*context {
				break
			}
			end = k + 1
		}
		end = min(len(script), end+context)
		if n := len(out); n > 0 && start <= out[n-1][1] {
			out[n-1][1] = end
		} else {
			out = append(out, [2]int{start, end})
		}
		i = end - 1
	}
	return out
}

// writeHunk writes one hunk; oldBefore and newBefore count the lines of
// each text before it, which an empty side reports as its start.
func writeHunk(b *strings.Builder, h []Line, oldBefore, newBefore int) {
	oldN, newN := 0, 0
	for _, l := range h {
		if l.Old > 0 {
			oldN++
		}
		if l.New > 0 {
			newN++
		}
	}
	oldStart, newStart := oldBefore, newBefore
	if oldN > 0 {
		oldStart++
	}
	if newN > 0 {
		newStart++
	}
	fmt.Fprintf(b, "@@ -%s +%s @@\n", span(oldStart, oldN), span(newStart, newN))
	for _, l := range h {
		b.WriteByte(byte(l.Op))
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
}

func span(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
