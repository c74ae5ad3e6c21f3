package shellclass

import (
	"fmt"
	"strings"
)

var sedSpec = optSpec{
	flags: "nrEsuz", values: "efl", optional: "i",
	long: map[string]optKind{
		"quiet": noValue, "silent": noValue, "debug": noValue,
		"expression": needsValue, "file": needsValue, "follow-symlinks": noValue,
		"in-place": mayValue, "line-length": needsValue, "null-data": noValue,
		"zero-terminated": noValue, "posix": noValue, "regexp-extended": noValue,
		"sandbox": noValue, "separate": noValue, "unbuffered": noValue,
		"binary": noValue, "help": noValue, "version": noValue,
	},
}

// sedCmd checks sed: no in-place editing, and a script that neither writes
// files nor runs commands.
func sedCmd(w *walker, prog string, args []arg) string {
	p, reason := sedSpec.parse(prog, args)
	if reason != "" {
		w.hide(reason)
		return ""
	}
	if p.has("i", "in-place") {
		w.denyf("%q -i edits files in place", prog)
	}
	if p.has("f", "file") {
		w.hidef("%q reads its script from a file, which cannot be checked", prog)
		return ""
	}
	scripts := p.vals("e", "expression")
	if len(scripts) == 0 {
		if len(p.operands) == 0 {
			return ""
		}
		scripts = p.operands[:1]
	}
	texts := make([]string, len(scripts))
	for i, s := range scripts {
		if !s.lit {
			w.hidef("the %s script %s is only known at run time", prog, s.text)
			return ""
		}
		texts[i] = s.text
	}
	// A sed script can run commands (e, s///e), so one that is not known
	// to be harmless makes the line opaque.
	if reason := sedScript(strings.Join(texts, "\n")); reason != "" {
		w.hidef("%s: %s", prog, reason)
	}
	return ""
}

// sedParser reads a sed script, GNU dialect, just far enough to find every
// command in it. Anything it does not understand is refused.
type sedParser struct {
	s     string
	i     int
	depth int
}

// sedScript returns why a sed script is not read-only, or "".
func sedScript(s string) string {
	p := &sedParser{s: s}
	return p.script()
}

func (p *sedParser) eof() bool { return p.i >= len(p.s) }

func (p *sedParser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.s[p.i]
}

func (p *sedParser) skip(set string) {
	for !p.eof() && strings.IndexByte(set, p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *sedParser) skipDigits() bool {
	start := p.i
	for !p.eof() && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	return p.i > start
}

// toLineEnd skips past the end of the current line.
func (p *sedParser) toLineEnd() {
	for !p.eof() && p.s[p.i] != '\n' {
		p.i++
	}
	p.i++
}

// label reads a label: up to white space, ";" or a newline. Reading less
// than sed does only makes more of the script look like commands.
func (p *sedParser) label() string {
	start := p.i
	for !p.eof() && strings.IndexByte(" \t\n;", p.s[p.i]) < 0 {
		p.i++
	}
	return p.s[start:p.i]
}

// text skips the text of an a, i or c command: the rest of the line, and
// the following lines while a line ends with a backslash.
func (p *sedParser) text() {
	p.skip(" \t")
	for !p.eof() {
		c := p.s[p.i]
		p.i++
		if c == '\\' {
			p.i++
			continue
		}
		if c == '\n' {
			return
		}
	}
}

func (p *sedParser) script() string {
	for {
		p.skip(" \t\n;")
		if p.eof() {
			if p.depth != 0 {
				return "the script has an unclosed {"
			}
			return ""
		}
		if p.peek() == '#' {
			p.toLineEnd()
			continue
		}
		hasAddr, reason := p.address()
		if reason != "" {
			return reason
		}
		if hasAddr {
			p.skip(" \t")
			if p.peek() == ',' {
				p.i++
				p.skip(" \t")
				if reason := p.address2(); reason != "" {
					return reason
				}
			}
		}
		p.skip(" \t")
		for p.peek() == '!' {
			p.i++
			p.skip(" \t")
		}
		if p.eof() {
			return "the script ends without a command"
		}
		c := p.s[p.i]
		p.i++
		switch c {
		case '{':
			p.depth++
			continue
		case '}':
			p.depth--
			if p.depth < 0 {
				return "the script has an unmatched }"
			}
		case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case 'l', 'L', 'q', 'Q':
			p.skip(" \t")
			p.skipDigits()
		case ':':
			if hasAddr {
				return "a label cannot have an address"
			}
			p.skip(" \t")
			if p.label() == "" {
				return "the script has an empty label"
			}
		case 'b', 't', 'T', 'v':
			p.skip(" \t")
			p.label()
		case 'a', 'i', 'c':
			p.text()
			continue
		case 'r', 'R':
			p.toLineEnd()
			continue
		case 'w', 'W':
			return fmt.Sprintf("the script writes to a file (%c command)", c)
		case 'e':
			return "the script runs a shell command (e command)"
		case 's':
			if reason := p.substitute(); reason != "" {
				return reason
			}
		case 'y':
			delim, reason := p.delimiter()
			if reason != "" {
				return reason
			}
			for range 2 {
				if reason := p.plain(delim); reason != "" {
					return reason
				}
			}
		default:
			return fmt.Sprintf("the script uses the command %q, which is not known to be safe", c)
		}
		p.skip(" \t")
		if p.eof() {
			continue
		}
		switch p.peek() {
		case ';', '\n':
			p.i++
		case '}', '#':
		default:
			return fmt.Sprintf("unexpected %q after a command in the script", p.peek())
		}
	}
}

// address reads one address, if there is one.
func (p *sedParser) address() (bool, string) {
	c := p.peek()
	switch {
	case c >= '0' && c <= '9':
		p.skipDigits()
		if p.peek() == '~' {
			p.i++
			p.skipDigits()
		}
		return true, ""
	case c == '$':
		p.i++
		return true, ""
	case c == '/':
		p.i++
		return true, p.addrRegex('/')
	case c == '\\':
		p.i++
		delim, reason := p.delimiter()
		if reason != "" {
			return true, reason
		}
		return true, p.addrRegex(delim)
	}
	return false, ""
}

func (p *sedParser) addrRegex(delim byte) string {
	if reason := p.regex(delim); reason != "" {
		return reason
	}
	for p.peek() == 'I' || p.peek() == 'M' {
		p.i++
	}
	return ""
}

// address2 reads the address after a comma, including GNU's +N and ~N.
func (p *sedParser) address2() string {
	if c := p.peek(); c == '+' || c == '~' {
		p.i++
		if !p.skipDigits() {
			return "the script has a malformed address"
		}
		return ""
	}
	ok, reason := p.address()
	if reason != "" {
		return reason
	}
	if !ok {
		return "the script has a malformed address"
	}
	return ""
}

// delimiter reads the delimiter of s, y or \cREGEXc.
func (p *sedParser) delimiter() (byte, string) {
	if p.eof() {
		return 0, "the script ends too early"
	}
	d := p.s[p.i]
	p.i++
	if d == '\n' || d == '\\' || d == '[' || d == ']' {
		return 0, fmt.Sprintf("the script uses %q as a delimiter, which is not checked", d)
	}
	return d, ""
}

// regex skips a regular expression up to its delimiter. Like GNU sed, a
// delimiter inside a bracket expression does not end it.
func (p *sedParser) regex(delim byte) string {
	for !p.eof() {
		c := p.s[p.i]
		p.i++
		switch {
		case c == delim:
			return ""
		case c == '\n':
			return "the script has a newline inside a regular expression"
		case c == '\\':
			if p.eof() {
				return "the script ends inside a regular expression"
			}
			p.i++
		case c == '[':
			if reason := p.bracket(); reason != "" {
				return reason
			}
		}
	}
	return "the script has an unterminated regular expression"
}

// bracket skips a bracket expression; the "[" has been read.
func (p *sedParser) bracket() string {
	if p.peek() == '^' {
		p.i++
	}
	if p.peek() == ']' {
		p.i++
	}
	for !p.eof() {
		c := p.s[p.i]
		p.i++
		switch c {
		case ']':
			return ""
		case '\n':
			return "the script has a newline inside a bracket expression"
		case '[':
			if k := p.peek(); k == ':' || k == '.' || k == '=' {
				end := strings.Index(p.s[p.i+1:], string(k)+"]")
				if end < 0 {
					return "the script has an unterminated character class"
				}
				p.i += 1 + end + 2
			}
		}
	}
	return "the script has an unterminated bracket expression"
}

// plain skips a replacement or a y operand up to its delimiter.
func (p *sedParser) plain(delim byte) string {
	for !p.eof() {
		c := p.s[p.i]
		p.i++
		switch {
		case c == delim:
			return ""
		case c == '\\':
			p.i++
		case c == '\n':
			return "the script has a newline inside a replacement"
		}
	}
	return "the script has an unterminated command"
}

// substitute reads the rest of an s command and refuses its w and e flags.
func (p *sedParser) substitute() string {
	delim, reason := p.delimiter()
	if reason != "" {
		return reason
	}
	if reason := p.regex(delim); reason != "" {
		return reason
	}
	if reason := p.plain(delim); reason != "" {
		return reason
	}
	for !p.eof() {
		switch f := p.s[p.i]; {
		case f == 'w' || f == 'W':
			return "the script writes to a file (s///w)"
		case f == 'e':
			return "the script runs the result as a command (s///e)"
		case strings.IndexByte("gpiImM0123456789", f) >= 0:
			p.i++
		default:
			return ""
		}
	}
	return ""
}

// sedPrograms is sed, whose script is checked command by command.
var sedPrograms = family{
	"sed": {check: sedCmd, files: files{values: "efl/f", use: sedFiles}},
}

// sedFiles records the files sed reads, and with -i also writes.
func sedFiles(w *walker, prog string, args []arg) {
	operands, values := splitOperands(lookup(prog), args)
	if hasShortOrLong(args, 'i', "in-place") {
		for _, o := range skipFirst(operands, !hasShortOrLong(args, 'e', "expression") && !hasShortOrLong(args, 'f', "file")) {
			w.use(o, true) // an edit in place reads the file too
			w.use(o, false)
		}
		return
	}
	given := hasShortOrLong(args, 'e', "regexp") || hasShortOrLong(args, 'f', "file") || hasShortOrLong(args, 'e', "expression")
	for _, o := range skipFirst(operands, !given) {
		w.use(o, false)
	}
	for _, v := range values {
		if v.file {
			w.use(v.arg, false)
		}
	}
}
