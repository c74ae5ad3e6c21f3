package builtin

import (
	"bytes"
	"regexp/syntax"
	"unicode/utf8"
)

// This file holds a lazily built deterministic automaton that answers one
// question fast: does a line contain a match? Grep needs no more than that
// for each line, and Go's regexp package, which also finds match bounds
// and submatches, is several times slower at it.
//
// A state is the set of program positions that are waiting for the next
// character, plus what is known about the previous character (start of
// line, word character or not). Empty-width assertions (^ $ \b \B) are
// resolved when the next character is known, as RE2 does. Because the
// search is unanchored, the program's start is added at every position.
// States and transitions are built on first use and cached.

// dfaMaxStates bounds the cache; past it the cache is cleared, and after
// a few clearings the automaton gives up so the caller uses regexp.
const (
	dfaMaxStates = 4000
	dfaMaxResets = 3
)

type dfaState struct {
	// next holds the transitions on ASCII characters to ordinary states,
	// indexed by byte. Entries for '\n', for bytes that start multi-byte
	// characters, for transitions not computed yet and for those to
	// special states stay nil, so the fast loop tests only for nil.
	next     [256]*dfaState
	other    map[rune]*dfaState // transitions on other characters
	special  map[rune]*dfaState // transitions to the match sentinel or dead states
	kernel   []uint32           // program positions, sorted
	atStart  bool               // no character consumed yet on this line
	prevWord bool               // the previous character is a word character
	endMatch int8               // at end of line: 0 unknown, 1 match, 2 no match
	// dead states cannot lead to a match until the end of the line.
	dead bool
}

// lineDFA belongs to one worker; it is not safe for concurrent use.
type lineDFA struct {
	prog    *syntax.Prog
	states  map[string]*dfaState
	start   *dfaState
	matched *dfaState // sentinel: the line matches
	resets  int
	failed  bool
	// startDead says the program cannot start a match anywhere but at
	// the beginning of a line (it begins with ^).
	startDead bool

	// scratch space
	stack   []uint32
	onStack []bool
	runes   []uint32
	key     []byte
}

func newLineDFA(prog *syntax.Prog) *lineDFA {
	d := &lineDFA{
		prog:    prog,
		matched: &dfaState{},
		onStack: make([]bool, len(prog.Inst)),
	}
	// Can the start produce anything away from the beginning of a line?
	// Try every combination of the flags that vary there.
	d.startDead = true
	for _, f := range []syntax.EmptyOp{0, syntax.EmptyWordBoundary, syntax.EmptyNoWordBoundary} {
		if cons, match := d.closure(nil, f); len(cons) > 0 || match {
			d.startDead = false
		}
	}
	d.reset()
	return d
}

func (d *lineDFA) reset() {
	d.states = make(map[string]*dfaState)
	d.start = d.state(nil, true, false)
}

// usable reports whether the automaton can still answer.
func (d *lineDFA) usable() bool { return !d.failed }

// state finds or makes the state for a kernel and flags.
func (d *lineDFA) state(kernel []uint32, atStart, prevWord bool) *dfaState {
	k := d.key[:0]
	var fl byte
	if atStart {
		fl |= 1
	}
	if prevWord {
		fl |= 2
	}
	k = append(k, fl)
	for _, pc := range kernel {
		k = append(k, byte(pc), byte(pc>>8), byte(pc>>16), byte(pc>>24))
	}
	d.key = k
	if s, ok := d.states[string(k)]; ok {
		return s
	}
	if len(d.states) >= dfaMaxStates {
		d.resets++
		if d.resets > dfaMaxResets {
			d.failed = true
			return nil
		}
		// Start over with an empty cache. States the caller holds stay
		// valid; they just are no longer shared.
		d.states = make(map[string]*dfaState)
		start := &dfaState{atStart: true}
		d.states[string([]byte{1})] = start
		d.start = start
		if s, ok := d.states[string(k)]; ok {
			return s
		}
	}
	s := &dfaState{kernel: append([]uint32(nil), kernel...), atStart: atStart, prevWord: prevWord}
	s.dead = len(kernel) == 0 && !atStart && d.startDead
	d.states[string(k)] = s
	return s
}

// closure follows empty transitions from the kernel and the program start
// under the assertions flags allows. It returns the positions that consume
// a character (in d.runes) and whether the program can match here.
func (d *lineDFA) closure(kernel []uint32, flags syntax.EmptyOp) ([]uint32, bool) {
	d.runes = d.runes[:0]
	matched := false
	stack := append(d.stack[:0], uint32(d.prog.Start))
	stack = append(stack, kernel...)
	var visited []uint32
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if d.onStack[pc] {
			continue
		}
		d.onStack[pc] = true
		visited = append(visited, pc)
		inst := &d.prog.Inst[pc]
		switch inst.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, inst.Out, inst.Arg)
		case syntax.InstCapture, syntax.InstNop:
			stack = append(stack, inst.Out)
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(inst.Arg)&^flags == 0 {
				stack = append(stack, inst.Out)
			}
		case syntax.InstMatch:
			matched = true
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			d.runes = append(d.runes, pc)
		}
	}
	for _, pc := range visited {
		d.onStack[pc] = false
	}
	d.stack = stack
	return d.runes, matched
}

func isWordRune(r rune) bool {
	return r < utf8.RuneSelf && syntax.IsWordChar(r)
}

// contextFlags are the assertions true between the previous character
// (described by s) and r; r < 0 means the end of the line.
func contextFlags(s *dfaState, r rune) syntax.EmptyOp {
	var f syntax.EmptyOp
	if s.atStart {
		f |= syntax.EmptyBeginLine | syntax.EmptyBeginText
	}
	if r < 0 {
		f |= syntax.EmptyEndLine | syntax.EmptyEndText
	}
	if s.prevWord != (r >= 0 && isWordRune(r)) {
		f |= syntax.EmptyWordBoundary
	} else {
		f |= syntax.EmptyNoWordBoundary
	}
	return f
}

// step computes the transition from s on r, caching it. It returns
// d.matched when a match ends before r, and nil when the automaton gave
// up.
func (d *lineDFA) step(s *dfaState, r rune) *dfaState {
	cons, match := d.closure(s.kernel, contextFlags(s, r))
	var next *dfaState
	if match {
		next = d.matched
	} else {
		var kernel []uint32
		for _, pc := range cons {
			inst := &d.prog.Inst[pc]
			ok := false
			switch inst.Op {
			case syntax.InstRune1:
				ok = r == inst.Rune[0]
			case syntax.InstRune:
				ok = inst.MatchRune(r)
			case syntax.InstRuneAny:
				ok = true
			case syntax.InstRuneAnyNotNL:
				ok = r != '\n'
			}
			if ok {
				kernel = insertSorted(kernel, inst.Out)
			}
		}
		next = d.state(kernel, false, isWordRune(r))
		if next == nil {
			return nil
		}
	}
	switch {
	case next == d.matched || next.dead:
		if s.special == nil {
			s.special = make(map[rune]*dfaState)
		}
		s.special[r] = next
	case r < utf8.RuneSelf:
		s.next[r] = next
	default:
		if s.other == nil {
			s.other = make(map[rune]*dfaState)
		}
		s.other[r] = next
	}
	return next
}

// cached returns the known transition from s on r, or nil.
func (s *dfaState) cached(r rune) *dfaState {
	if r < utf8.RuneSelf {
		if n := s.next[r]; n != nil {
			return n
		}
	} else if n := s.other[r]; n != nil {
		return n
	}
	return s.special[r]
}

func insertSorted(s []uint32, v uint32) []uint32 {
	i := 0
	for i < len(s) && s[i] < v {
		i++
	}
	if i < len(s) && s[i] == v {
		return s
	}
	s = append(s, 0)
	copy(s[i+1:], s[i:])
	s[i] = v
	return s
}

// endMatches reports whether a match ends at the end of the line.
func (d *lineDFA) endMatches(s *dfaState) bool {
	if s.endMatch == 0 {
		s.endMatch = 2
		if _, match := d.closure(s.kernel, contextFlags(s, -1)); match {
			s.endMatch = 1
		}
	}
	return s.endMatch == 1
}

// matchLine reports whether line (without its newline) holds a match. ok
// is false when the automaton gave up and the caller must decide another
// way.
func (d *lineDFA) matchLine(line []byte) (match, ok bool) {
	if d.failed {
		return false, false
	}
	s := d.start
	i := 0
	for {
		// The fast path: cached ASCII transitions between ordinary
		// states.
		for i < len(line) {
			next := s.next[line[i]]
			if next == nil {
				break
			}
			s = next
			i++
		}
		if i >= len(line) {
			return d.endMatches(s), true
		}
		r, size := rune(line[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(line[i:])
		}
		i += size
		next := s.cached(r)
		if next == nil {
			next = d.step(s, r)
		}
		switch {
		case next == d.matched:
			return true, true
		case next == nil:
			return false, false
		case next.dead:
			// Nothing can match before the end of the line; only the
			// last character matters for what is true there.
			r, _ := utf8.DecodeLastRune(line)
			if s = d.state(nil, false, isWordRune(r)); s == nil {
				return false, false
			}
			return d.endMatches(s), true
		}
		s = next
	}
}

// nextLine finds the first matching line at or after pos, which must be
// the start of a line. ok is false when the automaton gave up; ls is then
// the start of the line where the caller should go on another way.
func (d *lineDFA) nextLine(buf []byte, pos int) (ls, le int, found, ok bool) {
	for pos < len(buf) {
		end := len(buf)
		if i := bytes.IndexByte(buf[pos:], '\n'); i >= 0 {
			end = pos + i
		}
		m, ok := d.matchLine(buf[pos:end])
		if !ok {
			return pos, 0, false, false
		}
		if m {
			return pos, end, true, true
		}
		pos = end + 1
	}
	return 0, 0, false, true
}
