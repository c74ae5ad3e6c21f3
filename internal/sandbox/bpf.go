package sandbox

import (
	"fmt"
	"slices"
)

// A small assembler for classic BPF seccomp programs. The filter is a
// table: every system call number the filter knows gets a rule (allow it,
// refuse it with an errno, or look at its arguments first), and every
// other number gets ENOSYS. The program finds a call's rule by a binary
// search over ranges of numbers that share one, so a call costs a dozen
// instructions however long the table.

// Classic BPF opcodes used by the filter.
const (
	bpfLdAbsW = 0x20 // BPF_LD | BPF_W | BPF_ABS
	bpfAndK   = 0x54 // BPF_ALU | BPF_AND | BPF_K
	bpfJeqK   = 0x15 // BPF_JMP | BPF_JEQ | BPF_K
	bpfJgeK   = 0x35 // BPF_JMP | BPF_JGE | BPF_K
	bpfJsetK  = 0x45 // BPF_JMP | BPF_JSET | BPF_K
	bpfJa     = 0x05 // BPF_JMP | BPF_JA
	bpfRetK   = 0x06 // BPF_RET | BPF_K
)

// Offsets in struct seccomp_data.
const (
	dataNr   = 0
	dataArch = 4
	dataArgs = 16
)

// Return values.
const (
	retAllow = 0x7fff0000 // SECCOMP_RET_ALLOW
	retErrno = 0x00050000 // SECCOMP_RET_ERRNO | errno
)

// errnoRet is the return value that fails a call with errno e.
func errnoRet(e uint32) uint32 { return retErrno | e&0xffff }

// insn is one BPF instruction (struct sock_filter).
type insn struct {
	Code   uint16
	Jt, Jf uint8
	K      uint32
}

// condKind is how an argument is compared.
type condKind int

const (
	// lo32Eq: the low 32 bits equal the value. Arguments the kernel
	// declares as int or unsigned int are compared this way, since it
	// ignores the high half of the register: a filter that compared all
	// 64 bits could be passed by setting high bits.
	lo32Eq condKind = iota
	// lo32Ne: the low 32 bits differ from the value.
	lo32Ne
	// lo32AnyBit: the low 32 bits share a bit with the value.
	lo32AnyBit
	// lo32MaskEq: the low 32 bits, masked with mask, equal the value.
	lo32MaskEq
	// nonZero64: the whole 64-bit argument (a pointer) is not zero.
	nonZero64
)

// cond tests one argument.
type cond struct {
	kind  condKind
	arg   int
	value uint32
	mask  uint32 // lo32MaskEq only
}

// rule says what happens to one system call: ret when any alternative
// (all of its conditions) holds, otherwise the other value. A rule
// without alternatives returns otherwise at once.
type rule struct {
	nr        uint32
	alts      [][]cond
	ret       uint32
	otherwise uint32
}

// simple reports whether the rule ignores the arguments.
func (r rule) simple() bool { return len(r.alts) == 0 }

// pinsn is an instruction before layout: a plain instruction, a label, a
// conditional jump to labels, or an unconditional jump to a label.
type pinsn struct {
	insn
	label  int // > 0: marks a position, emits nothing
	jt, jf int // conditional jump targets; 0 means the next instruction
	ja     int // > 0: jump always to this label
	cond   bool
}

// program collects pseudo-instructions; assemble lays them out.
type program struct {
	code []pinsn
	next int
}

func (p *program) label() int { p.next++; return p.next }

func (p *program) mark(l int) { p.code = append(p.code, pinsn{label: l}) }

func (p *program) load(off uint32) {
	p.code = append(p.code, pinsn{insn: insn{Code: bpfLdAbsW, K: off}})
}

func (p *program) and(mask uint32) {
	p.code = append(p.code, pinsn{insn: insn{Code: bpfAndK, K: mask}})
}

func (p *program) ret(v uint32) { p.code = append(p.code, pinsn{insn: insn{Code: bpfRetK, K: v}}) }

// jump emits a conditional jump to label t when the test holds and to
// label f otherwise; 0 for either means fall through.
func (p *program) jump(code uint16, k uint32, t, f int) {
	p.code = append(p.code, pinsn{insn: insn{Code: code, K: k}, jt: t, jf: f, cond: true})
}

// assemble lays the program out. A conditional jump holds its targets in
// 8 bits, so one that must go further becomes a short jump over an
// unconditional one (32 bits): every jump starts short, and those that
// turn out too long are widened until the layout settles.
func (p *program) assemble() ([]insn, error) {
	wide := make([]bool, len(p.code))
	var addr []int
	labels := map[int]int{}
	size := func(i int) int {
		c := p.code[i]
		switch {
		case c.label > 0:
			return 0
		case c.cond && wide[i]:
			n := 1
			if c.jt != 0 {
				n++
			}
			if c.jf != 0 {
				n++
			}
			return n
		}
		return 1
	}
	for range len(p.code) + 1 {
		addr = make([]int, len(p.code)+1)
		for i := range p.code {
			addr[i+1] = addr[i] + size(i)
			if p.code[i].label > 0 {
				labels[p.code[i].label] = addr[i]
			}
		}
		changed := false
		for i, c := range p.code {
			if !c.cond || wide[i] {
				continue
			}
			for _, l := range []int{c.jt, c.jf} {
				if l != 0 && labels[l]-addr[i]-1 > 255 {
					wide[i], changed = true, true
				}
			}
		}
		if !changed {
			break
		}
	}
	out := make([]insn, 0, addr[len(p.code)])
	dist := func(from, l int) (uint32, error) {
		to, ok := labels[l]
		if !ok {
			return 0, fmt.Errorf("seccomp: undefined label %d", l)
		}
		d := to - from - 1
		if d < 0 {
			return 0, fmt.Errorf("seccomp: backward jump at %d", from)
		}
		return uint32(d), nil
	}
	for i, c := range p.code {
		at := addr[i]
		switch {
		case c.label > 0:
		case c.ja > 0:
			d, err := dist(at, c.ja)
			if err != nil {
				return nil, err
			}
			out = append(out, insn{Code: bpfJa, K: d})
		case c.cond && wide[i]:
			// The short jump lands on the unconditional jumps that
			// follow it: jt on the first, jf on the one after (or past
			// them, to fall through).
			j := insn{Code: c.Code, K: c.K}
			n := size(i) - 1
			next := 0
			if c.jt != 0 {
				j.Jt = uint8(next)
				next++
			} else {
				j.Jt = uint8(n)
			}
			if c.jf != 0 {
				j.Jf = uint8(next)
			} else {
				j.Jf = uint8(n)
			}
			out = append(out, j)
			for _, l := range []int{c.jt, c.jf} {
				if l == 0 {
					continue
				}
				d, err := dist(len(out), l)
				if err != nil {
					return nil, err
				}
				out = append(out, insn{Code: bpfJa, K: d})
			}
		case c.cond:
			j := insn{Code: c.Code, K: c.K}
			if c.jt != 0 {
				d, err := dist(at, c.jt)
				if err != nil {
					return nil, err
				}
				j.Jt = uint8(d)
			}
			if c.jf != 0 {
				d, err := dist(at, c.jf)
				if err != nil {
					return nil, err
				}
				j.Jf = uint8(d)
			}
			out = append(out, j)
		default:
			out = append(out, c.insn)
		}
	}
	if len(out) > 4096 {
		return nil, fmt.Errorf("seccomp filter of %d instructions (the kernel takes 4096)", len(out))
	}
	return out, nil
}

// argLo and argHi are the offsets of an argument's halves on a
// little-endian machine (every architecture the filter supports).
func argLo(n int) uint32 { return uint32(dataArgs + 8*n) }
func argHi(n int) uint32 { return uint32(dataArgs + 8*n + 4) }

// segment is a run of call numbers from start on that share a rule; a
// nil rule means the number is unknown to the filter (ENOSYS).
type segment struct {
	start uint32
	r     *rule
}

// segments groups the rules, sorted by number, into runs: neighbouring
// numbers with the same simple rule share one, as do the gaps between
// known numbers. The last run goes on to the largest number.
func segments(rules []rule) []segment {
	var out []segment
	next := uint32(0)
	for i := range rules {
		r := &rules[i]
		if r.nr > next {
			out = append(out, segment{start: next})
		}
		last := len(out) - 1
		if last >= 0 && out[last].r != nil && out[last].r.simple() && r.simple() && out[last].r.otherwise == r.otherwise && r.nr == next {
			next = r.nr + 1
			continue
		}
		out = append(out, segment{start: r.nr, r: r})
		next = r.nr + 1
	}
	return append(out, segment{start: next})
}

// compile builds the filter: calls of another architecture are refused
// with EPERM, calls of the native one with numbers at or above firstBad
// (x32 on x86-64) and numbers without a rule fail with ENOSYS (so a C
// library falls back to an older call), and every other call gets its
// rule.
func compile(arch, firstBad uint32, rules []rule) ([]insn, error) {
	rules = slices.Clone(rules)
	slices.SortFunc(rules, func(a, b rule) int { return int(a.nr) - int(b.nr) })
	for i := 1; i < len(rules); i++ {
		if rules[i].nr == rules[i-1].nr {
			return nil, fmt.Errorf("seccomp: two rules for call %d", rules[i].nr)
		}
	}
	p := &program{}
	foreign, enosys := p.label(), p.label()
	p.load(dataArch)
	p.jump(bpfJeqK, arch, 0, foreign)
	p.load(dataNr)
	if firstBad != 0 {
		p.jump(bpfJgeK, firstBad, enosys, 0)
	}
	p.tree(segments(rules))
	p.mark(foreign)
	p.ret(errnoRet(1)) // EPERM
	p.mark(enosys)
	p.ret(errnoRet(38)) // ENOSYS
	return p.assemble()
}

// tree emits a binary search over the segments, with the call number in
// the accumulator, ending in each segment's rule.
func (p *program) tree(segs []segment) {
	if len(segs) == 1 {
		p.leaf(segs[0].r)
		return
	}
	mid := len(segs) / 2
	right := p.label()
	p.jump(bpfJgeK, segs[mid].start, right, 0)
	p.tree(segs[:mid])
	p.mark(right)
	p.tree(segs[mid:])
}

// leaf emits one rule's checks and returns.
func (p *program) leaf(r *rule) {
	if r == nil {
		p.ret(errnoRet(38)) // ENOSYS
		return
	}
	for _, alt := range r.alts {
		fail := p.label()
		for _, c := range alt {
			switch c.kind {
			case lo32Eq:
				p.load(argLo(c.arg))
				p.jump(bpfJeqK, c.value, 0, fail)
			case lo32Ne:
				p.load(argLo(c.arg))
				p.jump(bpfJeqK, c.value, fail, 0)
			case lo32AnyBit:
				p.load(argLo(c.arg))
				p.jump(bpfJsetK, c.value, 0, fail)
			case lo32MaskEq:
				p.load(argLo(c.arg))
				p.and(c.mask)
				p.jump(bpfJeqK, c.value, 0, fail)
			case nonZero64:
				set := p.label()
				p.load(argLo(c.arg))
				p.jump(bpfJeqK, 0, 0, set)
				p.load(argHi(c.arg))
				p.jump(bpfJeqK, 0, fail, 0)
				p.mark(set)
			}
		}
		p.ret(r.ret)
		p.mark(fail)
	}
	p.ret(r.otherwise)
}
