package builtin

import (
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

func compileDFA(t *testing.T, expr string) (*lineDFA, *regexp.Regexp) {
	t.Helper()
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		t.Fatalf("%q: %v", expr, err)
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		t.Fatal(err)
	}
	return newLineDFA(prog), regexp.MustCompile(expr)
}

// TestLineDFAAgreesWithRegexp compares the automaton with package regexp
// on chosen patterns and random ones, over random lines.
func TestLineDFAAgreesWithRegexp(t *testing.T) {
	patterns := []string{
		"", "a", "ab", "a*", "a+b", "^a", "a$", "^$", "^a.*b$", `\bab\b`, `\Bb`, `\b$`, `^\b`,
		`a|b$`, `(a|b)*c`, `[^a]b`, `\w+ \w+`, `\s+$`, `(?i)ÉA`, `é+`, `[à-ÿ]`, `.`, `^.$`,
		`(?i)k`, `x{2,3}`, `\A a`, `a\z`, `(?:ab)+$`, `[[:upper:]]\d`, `\pL\PL`, `(a|ab)(c|bcd)(d*)`,
	}
	rng := rand.New(rand.NewPCG(7, 9))
	atoms := []string{"a", "b", "X", "é", ".", `\w`, `\W`, `\s`, `\b`, `\B`, "^", "$", "[ab]", "[^b ]", `\d`, "(?i:x)"}
	for range 300 {
		var b strings.Builder
		for range 1 + rng.IntN(5) {
			b.WriteString(atoms[rng.IntN(len(atoms))])
			switch rng.IntN(5) {
			case 0:
				b.WriteString("*")
			case 1:
				b.WriteString("+")
			case 2:
				b.WriteString("?")
			}
			if rng.IntN(8) == 0 {
				b.WriteString("|")
			}
		}
		patterns = append(patterns, strings.TrimSuffix(b.String(), "|"))
	}
	alphabet := []string{"a", "b", "c", "d", " ", "\t", "X", "x", "é", "É", "1", "-", "K", "\u212A", "\xff"}
	var lines []string
	for range 200 {
		var b strings.Builder
		for range rng.IntN(9) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		lines = append(lines, b.String())
	}
	for _, p := range patterns {
		expr := "(?m)" + p
		if _, err := syntax.Parse(expr, syntax.Perl); err != nil {
			continue
		}
		d, re := compileDFA(t, expr)
		for _, line := range lines {
			got, ok := d.matchLine([]byte(line))
			if !ok {
				t.Fatalf("%q: automaton gave up", p)
			}
			if want := re.MatchString(line); got != want {
				t.Errorf("pattern %q, line %q: automaton says %v, regexp %v", p, line, got, want)
			}
		}
	}
}

func TestLineDFANextLine(t *testing.T) {
	d, _ := compileDFA(t, `(?m)^b+$`)
	buf := []byte("a\nbb\nab\nb")
	var got []string
	pos := 0
	for {
		ls, le, found, ok := d.nextLine(buf, pos)
		if !ok {
			t.Fatal("gave up")
		}
		if !found {
			break
		}
		got = append(got, string(buf[ls:le]))
		pos = le + 1
	}
	if strings.Join(got, ",") != "bb,b" {
		t.Errorf("got %q", got)
	}
}

func TestLineDFAGivesUp(t *testing.T) {
	// A pattern whose automaton has exponentially many states.
	d, re := compileDFA(t, `(?m)(a|b)*a(a|b){14}c`)
	rng := rand.New(rand.NewPCG(1, 1))
	line := make([]byte, 4000)
	for i := range line {
		line[i] = "ab"[rng.IntN(2)]
	}
	m, ok := d.matchLine(line)
	if ok && m != re.Match(line) {
		t.Errorf("wrong answer %v", m)
	}
	// Whether it gave up or not, searching falls back correctly.
	env := newEnv(t)
	put(t, env.Dir, map[string]string{"f.txt": string(line) + "\n" + string(line[:20]) + "a" + strings.Repeat("b", 14) + "c\n"})
	got := grep(t, env, map[string]any{"pattern": `(a|b)*a(a|b){14}c`, "output_mode": "count"})
	wantContains(t, got, "f.txt:1")
}
