package headless

import (
	"strings"
	"unicode/utf8"
)

// printable removes what a terminal would act on rather than show from
// text a model wrote: escape sequences (colours, cursor moves, OSC 52's
// clipboard writes, window titles) and other control characters, except
// newlines and tabs. ponder -p's text output is plain text, and a model
// (or a file it quotes) must not drive the user's terminal through it.
func printable(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x1b:
			i += escapeLen(s[i:])
			continue
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case isControl(r):
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// isControl reports C0 and C1 control characters and DEL.
func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0
}

// escapeLen is the length of the escape sequence at the start of s (which
// begins with ESC): CSI up to its final byte, OSC, DCS, SOS, PM and APC up
// to BEL or ST, otherwise ESC and the byte after it.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
		return len(s)
	case ']', 'P', 'X', '^', '_':
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return len(s)
	}
	return 2
}
