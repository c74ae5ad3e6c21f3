package builtin

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// grepMaxLineWidth cuts long lines (minified code) in content output.
const grepMaxLineWidth = 500

// lineOut formats the matching lines of one file, with context, in the
// style of ripgrep: "path:12:text" for a match, "path-11-text" for a
// context line, and "--" between groups that are not adjacent. Matches
// must be passed in order.
type lineOut struct {
	buf           []byte // the file, or the part of it in memory
	out           []byte
	path          string
	nums          bool
	before, after int
	// limit bounds out, in bytes (0: no bound); lines past it are only
	// counted, in dropped.
	limit   int
	dropped int

	pos, line   int // line number of the line starting at byte pos
	lastLine    int // number of the last line written, 0 for none
	lastEnd     int // offset just past the last line written
	pendingTail int // context lines still owed after the last match
}

// lineNumber returns the number of the line starting at start, which must
// not be before the previous call's.
func (o *lineOut) lineNumber(start int) int {
	if o.line == 0 {
		o.line = 1
	}
	o.line += bytes.Count(o.buf[o.pos:start], []byte{'\n'})
	o.pos = start
	return o.line
}

// match writes the line [ls, le) as a match, with its context.
func (o *lineOut) match(ls, le int) {
	if o.lastLine > 0 && ls < o.lastEnd {
		return // already written (a multiline match shares lines)
	}
	n := o.lineNumber(ls)
	o.tail(n)
	// Leading context: up to before lines not yet written.
	start, k := ls, 0
	for k < o.before && start > 0 && start > o.lastEnd {
		start = bytes.LastIndexByte(o.buf[:start-1], '\n') + 1
		k++
	}
	for k > 0 {
		e := start + bytes.IndexByte(o.buf[start:], '\n')
		o.write(start, e, n-k, '-')
		start = e + 1
		k--
	}
	o.write(ls, le, n, ':')
	o.pendingTail = o.after
}

// tail writes owed trailing context up to (not including) line limit.
func (o *lineOut) tail(limit int) {
	for o.pendingTail > 0 && o.lastEnd < len(o.buf) && o.lastLine+1 < limit {
		s := o.lastEnd
		e := len(o.buf)
		if i := bytes.IndexByte(o.buf[s:], '\n'); i >= 0 {
			e = s + i
		}
		o.write(s, e, o.lastLine+1, '-')
		o.pendingTail--
	}
}

// finish writes the trailing context of the last match.
func (o *lineOut) finish() { o.tail(int(^uint(0) >> 1)) }

func (o *lineOut) write(s, e, n int, sep byte) {
	if o.limit > 0 && len(o.out) >= o.limit {
		// The output is cut well before this line anyway; count it
		// (with its separator) for the note that says so.
		if o.lastLine > 0 && (o.before > 0 || o.after > 0) && n > o.lastLine+1 {
			o.dropped++
		}
		o.dropped++
		o.lastLine = n
		o.lastEnd = e + 1
		return
	}
	if o.lastLine > 0 && (o.before > 0 || o.after > 0) && n > o.lastLine+1 {
		o.out = append(o.out, "--\n"...)
	}
	o.out = append(o.out, o.path...)
	o.out = append(o.out, sep)
	if o.nums {
		o.out = strconv.AppendInt(o.out, int64(n), 10)
		o.out = append(o.out, sep)
	}
	text := o.buf[s:e]
	if len(text) > 0 && text[len(text)-1] == '\r' {
		text = text[:len(text)-1]
	}
	if len(text) > grepMaxLineWidth {
		cut := grepMaxLineWidth
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		o.out = append(o.out, text[:cut]...)
		o.out = append(o.out, " … [line cut]"...)
	} else {
		o.out = append(o.out, text...)
	}
	o.out = append(o.out, '\n')
	o.lastLine = n
	o.lastEnd = e + 1
}

// shift drops the first n bytes of buf, which the caller moves out of
// memory; n must be a position the next match does not reach back
// before (the caller keeps the lines needed as context).
func (o *lineOut) shift(n int) {
	o.lineNumber(max(n, o.pos))
	o.pos -= n
	o.lastEnd -= n
	o.buf = o.buf[n:]
}
