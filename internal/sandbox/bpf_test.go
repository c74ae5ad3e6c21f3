package sandbox

import (
	"math/rand/v2"
	"testing"
)

// seccompData is struct seccomp_data as the filter reads it.
type seccompData struct {
	nr   uint32
	arch uint32
	args [6]uint64
}

// word returns the 32-bit word at offset off of the data, as BPF_LD|BPF_ABS
// loads it on a little-endian machine.
func (d seccompData) word(off uint32) uint32 {
	switch {
	case off == dataNr:
		return d.nr
	case off == dataArch:
		return d.arch
	case off >= dataArgs && off < dataArgs+48:
		a := d.args[(off-dataArgs)/8]
		if (off-dataArgs)%8 == 0 {
			return uint32(a)
		}
		return uint32(a >> 32)
	}
	panic("load outside seccomp_data")
}

// runBPF interprets a filter the way the kernel does, for the
// instructions the assembler emits. It fails the test on anything else:
// a backward or out-of-range jump, a fall off the end.
func runBPF(t testing.TB, prog []insn, d seccompData) uint32 {
	t.Helper()
	var a uint32
	for pc := 0; pc < len(prog); pc++ {
		in := prog[pc]
		switch in.Code {
		case bpfLdAbsW:
			a = d.word(in.K)
		case bpfAndK:
			a &= in.K
		case bpfJeqK, bpfJgeK, bpfJsetK:
			var ok bool
			switch in.Code {
			case bpfJeqK:
				ok = a == in.K
			case bpfJgeK:
				ok = a >= in.K
			default:
				ok = a&in.K != 0
			}
			if ok {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		case bpfJa:
			pc += int(in.K)
		case bpfRetK:
			return in.K
		default:
			t.Fatalf("unknown instruction %#x at %d", in.Code, pc)
		}
		if pc+1 > len(prog) {
			t.Fatalf("jump past the end at %d", pc)
		}
	}
	t.Fatal("the program fell off its end")
	return 0
}

// evalRules is what compile's program must return, computed from the
// rules directly.
func evalRules(rules []rule, arch, firstBad uint32, d seccompData) uint32 {
	if d.arch != arch {
		return errnoRet(1)
	}
	if firstBad != 0 && d.nr >= firstBad {
		return errnoRet(38)
	}
	for _, r := range rules {
		if r.nr != d.nr {
			continue
		}
		for _, alt := range r.alts {
			holds := true
			for _, c := range alt {
				lo := uint32(d.args[c.arg])
				switch c.kind {
				case lo32Eq:
					holds = holds && lo == c.value
				case lo32Ne:
					holds = holds && lo != c.value
				case lo32AnyBit:
					holds = holds && lo&c.value != 0
				case lo32MaskEq:
					holds = holds && lo&c.mask == c.value
				case nonZero64:
					holds = holds && d.args[c.arg] != 0
				}
			}
			if holds {
				return r.ret
			}
		}
		return r.otherwise
	}
	return errnoRet(38)
}

// randomRules makes a table of n rules on numbers below limit: simple ones
// that allow or refuse, in runs, and conditional ones of every kind, some
// with many alternatives so that the program needs jumps longer than a
// conditional jump can hold.
func randomRules(r *rand.Rand, n int, limit uint32) []rule {
	used := map[uint32]bool{}
	var rules []rule
	rets := []uint32{retAllow, errnoRet(1), errnoRet(13)}
	for len(rules) < n {
		nr := r.Uint32N(limit)
		if used[nr] {
			continue
		}
		used[nr] = true
		ru := rule{nr: nr, otherwise: rets[r.IntN(len(rets))], ret: rets[r.IntN(len(rets))]}
		if r.IntN(5) == 0 {
			for range 1 + r.IntN(12) {
				var alt []cond
				for range 1 + r.IntN(3) {
					alt = append(alt, cond{kind: condKind(r.IntN(5)), arg: r.IntN(6), value: r.Uint32N(8), mask: r.Uint32N(16)})
				}
				ru.alts = append(ru.alts, alt)
			}
		}
		rules = append(rules, ru)
	}
	return rules
}

// The assembled program agrees with the rules on every kind of call: each
// known number with arguments that meet a condition or not, unknown
// numbers, numbers at and past the x32 boundary, another architecture,
// high bits set in arguments.
func TestCompileAgreesWithTheRules(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const arch, firstBad = 0xc000003e, 0x40000000
	for round := range 40 {
		rules := randomRules(r, 1+r.IntN(200), 600)
		prog, err := compile(arch, firstBad, rules)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		for range 3000 {
			d := seccompData{arch: arch, nr: r.Uint32N(700)}
			switch r.IntN(20) {
			case 0:
				d.arch = 0x40000003
			case 1:
				d.nr = firstBad + r.Uint32N(600)
			case 2:
				d.nr = 0xffffffff - r.Uint32N(3)
			}
			for i := range d.args {
				d.args[i] = uint64(r.Uint32N(8))
				if r.IntN(4) == 0 {
					d.args[i] |= uint64(r.Uint32())<<32 | uint64(r.Uint32N(16))
				}
			}
			if got, want := runBPF(t, prog, d), evalRules(rules, arch, firstBad, d); got != want {
				t.Fatalf("round %d, call %d args %x: program returns %#x, rules say %#x", round, d.nr, d.args, got, want)
			}
		}
	}
}

// A table too big for short jumps still assembles, with the far jumps the
// relaxation inserts, and two rules for one number are an error.
func TestCompileLongJumpsAndDuplicates(t *testing.T) {
	var rules []rule
	for nr := range uint32(60) {
		ru := rule{nr: nr * 2, ret: errnoRet(1), otherwise: retAllow}
		for v := range uint32(10) {
			ru.alts = append(ru.alts, []cond{{kind: lo32Eq, arg: 1, value: v}})
		}
		rules = append(rules, ru)
	}
	prog, err := compile(1, 0, rules)
	if err != nil {
		t.Fatal(err)
	}
	far := 0
	for _, in := range prog {
		if in.Code == bpfJa && in.K > 255 {
			far++
		}
	}
	if far == 0 {
		t.Fatalf("a program of %d instructions needed no far jump; the test proves nothing", len(prog))
	}
	for nr := range uint32(122) {
		for v := range uint64(12) {
			d := seccompData{arch: 1, nr: nr, args: [6]uint64{0, v}}
			if got, want := runBPF(t, prog, d), evalRules(rules, 1, 0, d); got != want {
				t.Fatalf("call %d arg %d: %#x, want %#x", nr, v, got, want)
			}
		}
	}
	if _, err := compile(1, 0, append(rules, rule{nr: 4})); err == nil {
		t.Error("two rules for one call compiled")
	}
}
