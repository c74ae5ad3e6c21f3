package builtin

import (
	"bytes"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// This file finds literal text that every match of a regular expression
// must contain, so the search can look for that text with fast byte
// scanning and run the regular expression only where it occurs.

// literal is a string a match must contain; fold means in any letter case.
type literal struct {
	text string
	fold bool
}

// needle searches for one literal.
type needle struct {
	exact []byte // case-sensitive search when fold is false
	fold  bool
	lower []byte // the folded text in lower case (ASCII only)
	// anchor is the index of the needle's rarest byte; a1 and a2 are
	// that byte as it may appear in the text (its two cases when
	// folding, the byte twice otherwise).
	anchor int
	a1, a2 byte
}

// prefilter is a set of needles at least one of which occurs in every
// match; pure says that a needle hit is itself a match.
type prefilter struct {
	needles []needle
	pure    bool
}

// maxAlternatives bounds the needles of an alternation.
const maxAlternatives = 8

// buildPrefilter analyses a parsed expression. It returns nil when no
// useful literal is required.
func buildPrefilter(re *syntax.Regexp) *prefilter {
	re = re.Simplify()
	alts := requiredLiterals(re)
	if alts == nil || literalScore(alts) == 0 || commonBytesOnly(alts) {
		return nil
	}
	p := &prefilter{}
	for _, l := range alts {
		p.needles = append(p.needles, makeNeedle(l))
	}
	if re.Op == syntax.OpLiteral && len(p.needles) == 1 {
		n := p.needles[0]
		p.pure = !n.fold || len(n.lower) == len(alts[0].text)
	}
	return p
}

// requiredLiterals returns alternatives one of which every match of re
// contains, or nil when it cannot tell.
func requiredLiterals(re *syntax.Regexp) []literal {
	switch re.Op {
	case syntax.OpLiteral:
		return []literal{{text: string(re.Rune), fold: re.Flags&syntax.FoldCase != 0}}
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiterals(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiterals(re.Sub[0])
		}
	case syntax.OpConcat:
		var best []literal
		bestScore := 0
		for _, sub := range re.Sub {
			if alts := requiredLiterals(sub); alts != nil {
				if s := literalScore(alts); s > bestScore {
					best, bestScore = alts, s
				}
			}
		}
		return best
	case syntax.OpCharClass:
		// A small class of ASCII characters, such as [XYZ], gives
		// one-byte alternatives; whether they are worth searching for
		// is decided later, by how rare the bytes are.
		var alts []literal
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi >= utf8.RuneSelf || int(hi-lo)+1+len(alts) > 4 {
				return nil
			}
			for r := lo; r <= hi; r++ {
				alts = append(alts, literal{text: string(r)})
			}
		}
		return alts
	case syntax.OpAlternate:
		var all []literal
		for _, sub := range re.Sub {
			alts := requiredLiterals(sub)
			if alts == nil || len(all)+len(alts) > maxAlternatives {
				return nil
			}
			all = append(all, alts...)
		}
		return all
	}
	return nil
}

// commonBytesOnly reports alternatives that are all single bytes common in
// text, such as "(" or "e": nearly every line holds one, so looking for
// them first would only slow the search down.
func commonBytesOnly(alts []literal) bool {
	for _, l := range alts {
		if len(l.text) != 1 {
			return false
		}
		r := byteRank(l.text[0])
		if l.fold {
			r = max(r, byteRank(upper(l.text[0])))
		}
		if r <= 45 {
			return false
		}
	}
	return true
}

// literalScore rates a set of alternatives by the shortest text that can
// be searched for; zero means useless.
func literalScore(alts []literal) int {
	score := -1
	for _, l := range alts {
		n := len(l.text)
		if l.fold {
			n = len(foldablePart(l.text))
		}
		if score < 0 || n < score {
			score = n
		}
	}
	return max(score, 0)
}

// foldablePart returns the longest piece of s that can be searched for
// case-insensitively by ASCII folding alone. Non-ASCII text is cut out,
// and so are k and s, whose case-insensitive matches include the Kelvin
// sign and the long s.
func foldablePart(s string) string {
	best, start := "", 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || !asciiFoldable(s[i]) {
			if i-start > len(best) {
				best = s[start:i]
			}
			start = i + 1
		}
	}
	return best
}

func asciiFoldable(c byte) bool {
	if c >= utf8.RuneSelf {
		return false
	}
	switch c {
	case 'k', 'K', 's', 'S':
		return false
	}
	return true
}

func makeNeedle(l literal) needle {
	var n needle
	if l.fold {
		n.fold = true
		n.lower = []byte(strings.ToLower(foldablePart(l.text)))
	} else {
		n.exact = []byte(l.text)
	}
	text := n.text()
	best := -1
	for i, c := range text {
		r := byteRank(c)
		if n.fold {
			r += byteRank(upper(c))
		}
		if best < 0 || r < best {
			best, n.anchor = r, i
		}
	}
	n.a1, n.a2 = text[n.anchor], text[n.anchor]
	if n.fold {
		n.a2 = upper(n.a1)
	}
	return n
}

// text is what the needle looks for: the exact bytes, or the folded ones.
func (n *needle) text() []byte {
	if n.fold {
		return n.lower
	}
	return n.exact
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func lowerByte(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c - 'A' + 'a'
	}
	return c
}

// byteRank estimates how common a byte is in source code and prose:
// higher is more common.
func byteRank(c byte) int {
	const letters = "etaoinsrhldcumfpgwybvkxjqz" // most common first
	switch {
	case c >= 'a' && c <= 'z':
		return 100 - 3*strings.IndexByte(letters, c)
	case c >= 'A' && c <= 'Z':
		return 45 - strings.IndexByte(letters, c-'A'+'a')
	case c >= '0' && c <= '9':
		return 40
	case c == ' ' || c == '\t' || c == '\n':
		return 120
	case strings.IndexByte("(){}[];,.=:\"'_-/*<>&|!+", c) >= 0:
		return 50
	}
	return 5
}

// index returns the first position of the needle in b, or -1. It scans
// for the needle's rarest byte (in both cases when folding) and compares
// the whole needle around each hit: source text is full of a needle's
// first letter, far less often of its rarest one.
func (n *needle) index(b []byte) int {
	text := n.text()
	size := len(text)
	next1, next2 := -1, -1 // next known positions of a1 and a2
	fails := 0
	for i := n.anchor; i < len(b); {
		if !n.fold && fails > 16 && fails > i>>6 {
			// The rare byte is not rare here: let the library's
			// vectorised search take over.
			if j := bytes.Index(b[i-n.anchor:], text); j >= 0 {
				return i - n.anchor + j
			}
			return -1
		}
		if next1 < i {
			if next1 = indexByteFrom(b, n.a1, i); next1 < 0 {
				next1 = len(b)
			}
		}
		c := next1
		if n.a2 != n.a1 {
			if next2 < i {
				if next2 = indexByteFrom(b, n.a2, i); next2 < 0 {
					next2 = len(b)
				}
			}
			c = min(c, next2)
		}
		if c >= len(b) {
			return -1
		}
		start := c - n.anchor
		if start+size <= len(b) && n.equal(b[start:start+size]) {
			return start
		}
		fails++
		i = c + 1
	}
	return -1
}

func indexByteFrom(b []byte, c byte, from int) int {
	i := bytes.IndexByte(b[from:], c)
	if i < 0 {
		return -1
	}
	return from + i
}

func (n *needle) equal(b []byte) bool {
	if n.fold {
		return equalFoldASCII(b, n.lower)
	}
	return bytes.Equal(b, n.exact)
}

// equalFoldASCII compares b with lower, which is in lower case.
func equalFoldASCII(b, lower []byte) bool {
	for i, c := range b {
		if lowerByte(c) != lower[i] {
			return false
		}
	}
	return true
}

// index returns the first position where any needle occurs in b, or -1.
// next caches the needles' upcoming positions between calls on the same
// buffer with growing offsets (pass nil for a one-off search).
func (p *prefilter) index(b []byte, from int, next []int) int {
	if len(p.needles) == 1 {
		i := p.needles[0].index(b[from:])
		if i < 0 {
			return -1
		}
		return from + i
	}
	best := -1
	for k := range p.needles {
		pos := -2
		if next != nil && next[k] != -2 && (next[k] == -1 || next[k] >= from) {
			pos = next[k]
		} else {
			if i := p.needles[k].index(b[from:]); i >= 0 {
				pos = from + i
			} else {
				pos = -1
			}
			if next != nil {
				next[k] = pos
			}
		}
		if pos >= 0 && (best < 0 || pos < best) {
			best = pos
		}
	}
	return best
}
