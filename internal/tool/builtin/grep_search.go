package builtin

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"time"
)

// grepMode is what Grep reports.
type grepMode int

const (
	modeFiles grepMode = iota
	modeContent
	modeCount
)

// searcher holds what every file search shares; it is read-only while
// the search runs.
type searcher struct {
	re        *regexp.Regexp
	prog      *syntax.Prog // for the line automaton; nil in multiline mode
	pre       *prefilter   // nil: no required literal
	multiline bool
	// lookBehind says the pattern has an assertion that looks at the
	// text before a position (^, \A, \b, \B).
	lookBehind bool
	mode       grepMode
	lineNums   bool
	before     int
	after      int
	maxSize    int64 // larger files are skipped; 0: no limit
}

// fileResult is what one file contributed.
type fileResult struct {
	path  string
	mod   time.Time
	count int    // matching lines
	out   []byte // formatted lines, content mode only
	extra int    // output lines left out of out because it is long
}

// grepWorker searches files one at a time, reusing its buffers.
type grepWorker struct {
	s    *searcher
	buf  []byte
	out  []byte
	next []int
	dfa  *lineDFA // nil: use the regexp
}

func newGrepWorker(s *searcher) *grepWorker {
	w := &grepWorker{s: s, buf: make([]byte, 0, 256<<10)}
	if s.pre != nil {
		w.next = make([]int, len(s.pre.needles))
	}
	if s.prog != nil {
		w.dfa = newLineDFA(s.prog)
	}
	return w
}

// lineMatches runs the full pattern on one line.
func (w *grepWorker) lineMatches(line []byte) bool {
	if w.dfa != nil {
		if m, ok := w.dfa.matchLine(line); ok {
			return m
		}
	}
	return w.s.re.Match(line)
}

// outcome of a file search besides matches.
type skipReason int

const (
	notSkipped skipReason = iota
	skippedBinary
	skippedLarge
	skippedLargePseudo // a file of /proc or /sys over what a walk reads
	skippedError
)

// searchFile searches one file; ok is false when nothing matched.
func (w *grepWorker) searchFile(path string) (res fileResult, ok bool, skip skipReason) {
	data, skip := w.load(path)
	if skip != notSkipped {
		return res, false, skip
	}
	if bytes.IndexByte(data[:min(len(data), binarySniffSize)], 0) >= 0 {
		return res, false, skippedBinary
	}
	res = fileResult{path: path}
	w.out = w.out[:0]
	var lo *lineOut
	if w.s.mode == modeContent {
		lo = w.newLineOut(data, path)
	}
	visit := func(ls, le int) bool {
		res.count++
		if lo != nil {
			lo.match(ls, le)
		}
		return w.s.mode != modeFiles
	}
	if w.s.multiline {
		w.s.eachMultilineMatch(data, 0, len(data), &multiState{last: -1}, visit)
	} else {
		w.eachMatchingLine(data, 0, visit)
	}
	if res.count == 0 {
		return res, false, notSkipped
	}
	// A NUL past the sniffed start still marks the file as binary.
	if len(data) > binarySniffSize && bytes.IndexByte(data[binarySniffSize:], 0) >= 0 {
		return fileResult{}, false, skippedBinary
	}
	if w.s.mode == modeFiles {
		res.mod = modTime(path)
	}
	if lo != nil {
		lo.finish()
		w.out = lo.out
		res.out = bytes.Clone(w.out)
		res.extra = lo.dropped
	}
	return res, true, notSkipped
}

// newLineOut returns the formatter of a file's matching lines, writing
// into the worker's reused buffer.
func (w *grepWorker) newLineOut(buf []byte, path string) *lineOut {
	return &lineOut{buf: buf, out: w.out, path: path, nums: w.s.lineNums, before: w.s.before, after: w.s.after, limit: grepMaxOutput}
}

// eachMatchingLine calls visit with the bounds of each line that matches,
// from the line starting at pos on, in order, until visit returns false.
func (w *grepWorker) eachMatchingLine(buf []byte, pos int, visit func(ls, le int) bool) {
	s := w.s
	for k := range w.next {
		w.next[k] = -2
	}
	for pos < len(buf) {
		var ls, le int
		switch {
		case s.pre != nil:
			// Find the next line holding a required literal, then check
			// the whole pattern on it.
			cand := s.pre.index(buf, pos, w.next)
			if cand < 0 {
				return
			}
			ls = bytes.LastIndexByte(buf[pos:cand], '\n') + 1 + pos
			le = len(buf)
			if i := bytes.IndexByte(buf[cand:], '\n'); i >= 0 {
				le = cand + i
			}
			if !s.pre.pure && !w.lineMatches(buf[ls:le]) {
				pos = le + 1
				continue
			}
		case w.dfa != nil && w.dfa.usable():
			var found, ok bool
			ls, le, found, ok = w.dfa.nextLine(buf, pos)
			if !ok {
				pos = ls // the automaton gave up here: go on with regexp
				continue
			}
			if !found {
				return
			}
		default:
			// Let the regexp find a candidate anywhere in the rest of the
			// buffer, then confirm it within its line.
			loc := s.re.FindIndex(buf[pos:])
			if loc == nil {
				return
			}
			cand := pos + loc[0]
			ls = bytes.LastIndexByte(buf[pos:cand], '\n') + 1 + pos
			le = len(buf)
			if i := bytes.IndexByte(buf[cand:], '\n'); i >= 0 {
				le = cand + i
			}
			if !s.re.Match(buf[ls:le]) {
				pos = le + 1
				continue
			}
		}
		if !visit(ls, le) {
			return
		}
		pos = le + 1
	}
}

// multiState is where a multiline search stands between windows of a
// streamed file (offsets into the current window).
type multiState struct {
	done int // lines starting before this offset were visited
	// last is the end of the last match taken, -1 before the first.
	last int
	// abut says the search starts where the last match ended, midLine
	// that it starts in the middle of a line: see eachMultilineMatch.
	abut, midLine bool
}

// eachMultilineMatch calls visit for each line touched by a match that
// may span lines, in order and without repeats, until visit returns false.
// Matches are looked for from offset from on, and only those starting
// before until are taken. A streamed search goes on where the last match
// taken ended, as a search of the whole file would. A match found right
// there is left out if it is empty and next to the one before (st.abut;
// a whole search ignores it), or if the search starts in the middle of a
// line (st.midLine) and the pattern looks at what comes before a
// position (^, \b, \A), which the search cannot see.
func (s *searcher) eachMultilineMatch(buf []byte, from, until int, st *multiState, visit func(ls, le int) bool) {
	if s.pre != nil && s.pre.index(buf, from, nil) < 0 {
		return
	}
	for _, loc := range s.re.FindAllIndex(buf[from:], -1) {
		start, end := loc[0]+from, loc[1]+from
		if start == from && (st.abut && end == start || st.midLine && s.lookBehind) {
			continue
		}
		if start >= until {
			return
		}
		st.last = end
		if end > start {
			end-- // the last byte of the match decides its last line
		}
		ls := bytes.LastIndexByte(buf[:start], '\n') + 1
		for ls <= end && ls < len(buf) {
			le := len(buf)
			if i := bytes.IndexByte(buf[ls:], '\n'); i >= 0 {
				le = ls + i
			}
			if ls >= st.done {
				if !visit(ls, le) {
					return
				}
				st.done = le + 1
			}
			ls = le + 1
		}
	}
}
