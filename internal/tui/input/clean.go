package input

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// tabSpaces replaces a tab, which has no fixed width on screen.
const tabSpaces = "    "

// clean turns typed, pasted or set text into what the buffer may hold:
// "\r\n" and lone "\r" become "\n", a tab becomes four spaces, escape
// sequences and other control characters are dropped, and invalid UTF-8
// becomes U+FFFD. Printable text passes through untouched.
func clean(s string) string {
	if plain(s) {
		return s
	}
	if strings.IndexByte(s, 0x1b) >= 0 {
		s = ansi.Strip(s)
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\r':
			b.WriteByte('\n')
			if i+1 < len(s) && s[i+1] == '\n' {
				n++
			}
		case r == '\n':
			b.WriteByte('\n')
		case r == '\t':
			b.WriteString(tabSpaces)
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
			// Dropped: other C0 and C1 controls.
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// plain reports whether s holds only printable ASCII, the common case of a
// key press.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}
