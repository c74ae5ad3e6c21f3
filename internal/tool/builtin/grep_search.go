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
	mode      grepMode
	lineNums  bool
	before    int
	after     int
	maxSize   int64 // larger files are skipped; 0: no limit
}

// fileResult is what one file contributed.
type fileResult struct {
	path  string
	mod   time.Time
	count int    // matching lines
	out   []byte // formatted lines, content mode only
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
		lo = &lineOut{buf: data, out: w.out, path: path, nums: w.s.lineNums, before: w.s.before, after: w.s.after}
	}
	visit := func(ls, le int) bool {
		res.count++
		if lo != nil {
			lo.match(ls, le)
		}
		return w.s.mode != modeFiles
	}
	if w.s.multiline {
		w.s.eachMultilineMatch(data, visit)
	} else {
		w.eachMatchingLine(data, visit)
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
	}
	return res, true, notSkipped
}

// eachMatchingLine calls visit with the bounds of each line that matches,
// in order, until visit returns false.
func (w *grepWorker) eachMatchingLine(buf []byte, visit func(ls, le int) bool) {
	s := w.s
	for k := range w.next {
		w.next[k] = -2
	}
	pos := 0
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

// eachMultilineMatch calls visit for each line touched by a match that
// may span lines, in order and without repeats, until visit returns false.
func (s *searcher) eachMultilineMatch(buf []byte, visit func(ls, le int) bool) {
	if s.pre != nil && s.pre.index(buf, 0, nil) < 0 {
		return
	}
	done := 0 // lines starting before this offset were visited
	for _, loc := range s.re.FindAllIndex(buf, -1) {
		start, end := loc[0], loc[1]
		if end > start {
			end-- // the last byte of the match decides its last line
		}
		ls := bytes.LastIndexByte(buf[:start], '\n') + 1
		for ls <= end && ls < len(buf) {
			le := len(buf)
			if i := bytes.IndexByte(buf[ls:], '\n'); i >= 0 {
				le = ls + i
			}
			if ls >= done {
				if !visit(ls, le) {
					return
				}
				done = le + 1
			}
			ls = le + 1
		}
	}
}
