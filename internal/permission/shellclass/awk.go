package shellclass

import (
	"strings"
)

var awkSpec = optSpec{
	flags: "bcCghMnNOPrsStV", values: "eEFfilvW", optional: "dDLop",
	long: map[string]optKind{
		"field-separator": needsValue, "assign": needsValue, "source": needsValue,
		"file": needsValue, "include": needsValue, "load": needsValue,
		"exec": needsValue, "characters-as-bytes": noValue, "traditional": noValue,
		"posix": noValue, "re-interval": noValue, "sandbox": noValue,
		"lint": mayValue, "optimize": noValue, "no-optimize": noValue,
		"bignum": noValue, "copyright": noValue, "version": noValue,
		"help": noValue, "gen-pot": noValue, "non-decimal-data": noValue,
		"dump-variables": mayValue, "debug": mayValue, "pretty-print": mayValue,
		"profile": mayValue, "use-lc-numeric": noValue, "csv": noValue,
	},
}

// awkRefused are awk options that load code from files or write files.
var awkRefused = map[string]string{
	"f":              "reads its program from a file, which cannot be checked",
	"file":           "reads its program from a file, which cannot be checked",
	"E":              "reads its program from a file, which cannot be checked",
	"exec":           "reads its program from a file, which cannot be checked",
	"i":              "includes a source file, which cannot be checked",
	"include":        "includes a source file, which cannot be checked",
	"l":              "loads an extension library",
	"load":           "loads an extension library",
	"W":              "option -W is not checked",
	"d":              "writes a variable dump file",
	"dump-variables": "writes a variable dump file",
	"D":              "starts the debugger",
	"debug":          "starts the debugger",
	"o":              "writes a pretty-printed program file",
	"pretty-print":   "writes a pretty-printed program file",
	"p":              "writes a profile file",
	"profile":        "writes a profile file",
}

// awkCmd checks awk: no option that loads code or writes files, and a
// program that neither writes files nor runs commands. An awk program can
// run commands (system(), pipes), so a program that is not known to be
// harmless makes the line opaque.
func awkCmd(w *walker, prog string, args []arg) string {
	p, reason := awkSpec.parse(prog, args)
	if reason != "" {
		w.hide(reason)
		return ""
	}
	for _, o := range p.opts {
		if why, ok := awkRefused[o.name]; ok {
			w.hidef("%q %s", prog, why)
			return ""
		}
	}
	programs := p.vals("e", "source")
	if len(programs) == 0 {
		if len(p.operands) == 0 {
			return ""
		}
		programs = p.operands[:1]
	}
	for _, src := range programs {
		if !src.lit {
			w.hidef("the %s program %s is only known at run time", prog, src.text)
			return ""
		}
		if reason := awkProgram(src.text); reason != "" {
			w.hidef("%s: %s", prog, reason)
			return ""
		}
	}
	return ""
}

// awkToken is one token of an awk program.
type awkToken struct {
	kind byte // 'n' name, '1' number, 's' string, 'r' regex, 'o' operator, '\n' newline
	text string
}

// awkRegexAfter are keywords after which a slash starts a regex.
var awkRegexAfter = map[string]bool{
	"print": true, "printf": true, "return": true, "do": true, "else": true,
}

// awkProgram returns why an awk program is not read-only, or "". It refuses
// system(), pipes to and from commands, print and printf redirections,
// and gawk's @ directives and indirect calls.
func awkProgram(src string) string {
	toks, reason := awkLex(src)
	if reason != "" {
		return reason
	}
	inPrint := false
	depth := 0
	for i, t := range toks {
		switch {
		case t.kind == 'n' && t.text == "system":
			return "the program calls system(), which runs a command"
		case t.kind == 'n' && (t.text == "print" || t.text == "printf"):
			inPrint, depth = true, 0
		case t.kind == 'o':
			switch t.text {
			case "|", "|&":
				return "the program pipes to or from a command"
			case "@":
				return "the program uses a gawk @ directive or indirect call"
			case "(", "[":
				depth++
			case ")", "]":
				depth--
			case ">", ">>":
				if inPrint && depth <= 0 {
					return "the program redirects print output to a file"
				}
			case ";", "{", "}":
				inPrint = false
			}
		case t.kind == '\n':
			continued := i > 0 && toks[i-1].kind == 'o' &&
				(toks[i-1].text == "," || toks[i-1].text == "&&" || toks[i-1].text == "||")
			if depth <= 0 && !continued {
				inPrint = false
			}
		}
	}
	return ""
}

// awkLex splits an awk program into tokens. Where a slash could be either
// division or the start of a regex and the lexer cannot tell, it refuses.
func awkLex(s string) ([]awkToken, string) {
	var toks []awkToken
	emit := func(kind byte, text string) { toks = append(toks, awkToken{kind, text}) }
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i += 2
		case c == '\\' && i+2 < len(s) && s[i+1] == '\r' && s[i+2] == '\n':
			i += 3
		case c == '\n':
			emit('\n', "\n")
			i++
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '"':
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\n' {
					return nil, "the program has a newline inside a string"
				}
				if s[j] == '\\' {
					j++
				}
			}
			if j >= len(s) {
				return nil, "the program has an unterminated string"
			}
			emit('s', s[i:j+1])
			i = j + 1
		case c == '/':
			switch awkSlash(toks) {
			case 'r':
				j, reason := awkRegexEnd(s, i+1)
				if reason != "" {
					return nil, reason
				}
				emit('r', s[i:j])
				i = j
			case 'o':
				if i+1 < len(s) && s[i+1] == '=' {
					emit('o', "/=")
					i += 2
				} else {
					emit('o', "/")
					i++
				}
			default:
				return nil, "the program has a slash that could start a regex or divide"
			}
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			j := i
			for j < len(s) && (isNameByte(s[j]) || s[j] == '.') {
				j++
			}
			emit('1', s[i:j])
			i = j
		case isNameByte(c):
			j := i
			for j < len(s) && isNameByte(s[j]) {
				j++
			}
			emit('n', s[i:j])
			i = j
		default:
			op := string(c)
			for _, long := range []string{"**=", "||", "&&", "==", "!=", "<=", ">=", "++", "--", "+=", "-=", "*=", "%=", "^=", "**", ">>", "!~", "|&"} {
				if strings.HasPrefix(s[i:], long) {
					op = long
					break
				}
			}
			emit('o', op)
			i += len(op)
		}
	}
	return toks, ""
}

// awkSlash decides what a slash after toks is: 'r' a regex, 'o' division,
// or 0 when it cannot be told.
func awkSlash(toks []awkToken) byte {
	if len(toks) == 0 {
		return 'r'
	}
	prev := toks[len(toks)-1]
	switch prev.kind {
	case '\n':
		return 'r'
	case '1', 's':
		return 'o'
	case 'n':
		if awkRegexAfter[prev.text] {
			return 'r'
		}
		if awkKeywords[prev.text] {
			return 0
		}
		return 'o'
	case 'o':
		switch prev.text {
		case ")", "]":
			return 'o'
		case "$", "++", "--":
			return 0
		}
		return 'r'
	}
	return 0
}

// awkKeywords are awk words after which a slash is ambiguous.
var awkKeywords = map[string]bool{
	"getline": true, "in": true, "if": true, "while": true, "for": true,
	"function": true, "func": true, "delete": true, "exit": true,
	"next": true, "nextfile": true, "BEGIN": true, "END": true,
	"BEGINFILE": true, "ENDFILE": true, "case": true, "switch": true,
	"default": true, "break": true, "continue": true,
}

// awkRegexEnd returns the index just past the regex that starts at i (after
// the opening slash). A slash inside a bracket expression is refused: awk
// implementations disagree on whether it ends the regex.
func awkRegexEnd(s string, i int) (int, string) {
	inBracket := false
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '\n':
			return 0, "the program has a newline inside a regex"
		case '[':
			inBracket = true
		case ']':
			inBracket = false
		case '/':
			if inBracket {
				return 0, "the program has a slash inside a bracket expression"
			}
			return i + 1, ""
		}
	}
	return 0, "the program has an unterminated regex"
}

// awkPrograms are the awk implementations, whose programs are checked.
var awkPrograms = family{
	"awk":  {check: awkCmd, files: files{values: "fvF/f", reads: true, patternFirst: true}},
	"gawk": {check: awkCmd, files: files{values: "fvFeiE/fi", reads: true, patternFirst: true}},
	"mawk": {check: awkCmd, files: files{values: "fvF/f", reads: true, patternFirst: true}},
	"nawk": {check: awkCmd},
}
