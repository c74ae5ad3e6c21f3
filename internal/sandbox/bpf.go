package sandbox

import "fmt"

// A small assembler for classic BPF seccomp programs: the filter is a
// list of rules, each a system call number, alternatives of conditions on
// its arguments, and what to return when one alternative holds.

// Classic BPF opcodes used by the filter.
const (
	bpfLdAbsW = 0x20 // BPF_LD | BPF_W | BPF_ABS
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
	// nonZero64: the whole 64-bit argument (a pointer) is not zero.
	nonZero64
)

// cond tests one argument.
type cond struct {
	kind  condKind
	arg   int
	value uint32
}

// rule says what happens to one system call: ret when any alternative
// (all of its conditions) holds, or at once when there are none.
type rule struct {
	nr   uint32
	alts [][]cond
	ret  uint32
}

// label-resolving program builder.
type program struct {
	code []insn
	// fix maps an instruction index to the labels its jumps go to
	// (true, false); -1 means "next instruction".
	fixT, fixF map[int]int
	labels     map[int]int
	next       int
}

func newProgram() *program {
	return &program{fixT: map[int]int{}, fixF: map[int]int{}, labels: map[int]int{}}
}

func (p *program) label() int { p.next++; return p.next }

func (p *program) mark(l int) { p.labels[l] = len(p.code) }

func (p *program) emit(i insn) int { p.code = append(p.code, i); return len(p.code) - 1 }

func (p *program) load(off uint32) { p.emit(insn{Code: bpfLdAbsW, K: off}) }

func (p *program) ret(v uint32) { p.emit(insn{Code: bpfRetK, K: v}) }

// jump emits a conditional jump to label t when the test holds and to
// label f otherwise; 0 for either means fall through.
func (p *program) jump(code uint16, k uint32, t, f int) {
	i := p.emit(insn{Code: code, K: k})
	if t != 0 {
		p.fixT[i] = t
	}
	if f != 0 {
		p.fixF[i] = f
	}
}

// assemble resolves labels. Every jump must go forward and by at most 255
// instructions, which the rule-by-rule layout guarantees.
func (p *program) assemble() ([]insn, error) {
	for i, l := range p.fixT {
		d := p.labels[l] - i - 1
		if d < 0 || d > 255 {
			return nil, fmt.Errorf("seccomp jump of %d instructions at %d", d, i)
		}
		p.code[i].Jt = uint8(d)
	}
	for i, l := range p.fixF {
		d := p.labels[l] - i - 1
		if d < 0 || d > 255 {
			return nil, fmt.Errorf("seccomp jump of %d instructions at %d", d, i)
		}
		p.code[i].Jf = uint8(d)
	}
	return p.code, nil
}

// argLo and argHi are the offsets of an argument's halves on a
// little-endian machine (every architecture the filter supports).
func argLo(n int) uint32 { return uint32(dataArgs + 8*n) }
func argHi(n int) uint32 { return uint32(dataArgs + 8*n + 4) }

// compile builds the filter: calls of another architecture are refused,
// calls of the native one with numbers at or above firstBad (x32 on
// x86-64) are refused, then each rule is checked in turn, and whatever no
// rule refuses is allowed.
func compile(arch, firstBad uint32, rules []rule) ([]insn, error) {
	p := newProgram()
	p.load(dataArch)
	native := p.label()
	p.jump(bpfJeqK, arch, native, 0)
	p.ret(retErrno | 1) // EPERM
	p.mark(native)
	p.load(dataNr)
	if firstBad != 0 {
		ok := p.label()
		p.jump(bpfJgeK, firstBad, 0, ok)
		p.ret(retErrno | 38) // ENOSYS
		p.mark(ok)
	}
	for _, r := range rules {
		next := p.label()
		p.load(dataNr)
		p.jump(bpfJeqK, r.nr, 0, next)
		if len(r.alts) == 0 {
			p.ret(r.ret)
			p.mark(next)
			continue
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
		p.mark(next)
	}
	p.ret(retAllow)
	return p.assemble()
}
