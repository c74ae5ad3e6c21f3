package shellclass

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// validName reports whether s is a shell variable name.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		switch {
		case c == '_', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// numericSpecial are variables bash itself keeps numeric.
var numericSpecial = map[string]bool{
	"#": true, "?": true, "$": true, "!": true, "RANDOM": true, "SRANDOM": true,
	"SECONDS": true, "EPOCHSECONDS": true, "LINENO": true, "COLUMNS": true,
	"LINES": true, "BASHPID": true, "PPID": true, "UID": true, "EUID": true,
	"SHLVL": true, "HISTCMD": true, "OPTIND": true, "PIPESTATUS": true,
}

// numericWord reports whether a word's value is certainly a number: a
// decimal literal, an arithmetic expansion, or empty.
func numericWord(word *syntax.Word) bool {
	if word == nil {
		return true
	}
	if len(word.Parts) == 1 {
		if l, ok := word.Parts[0].(*syntax.Lit); ok {
			return numericText(l.Value)
		}
	}
	for _, p := range word.Parts {
		if _, ok := p.(*syntax.ArithmExp); !ok {
			return false
		}
	}
	return true
}

// numericText reports whether s is empty or a decimal integer.
func numericText(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// braceSequence reports whether a word is a numeric brace sequence such as
// {1..10} or {0..20..5}.
func braceSequence(word *syntax.Word) bool {
	if len(word.Parts) != 1 {
		return false
	}
	l, ok := word.Parts[0].(*syntax.Lit)
	if !ok {
		return false
	}
	inner, ok := strings.CutPrefix(l.Value, "{")
	if !ok {
		return false
	}
	inner, ok = strings.CutSuffix(inner, "}")
	if !ok {
		return false
	}
	parts := strings.Split(inner, "..")
	if len(parts) < 2 || len(parts) > 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || !numericText(p) {
			return false
		}
	}
	return true
}

// arithNames returns the variable names used in a piece of arithmetic text,
// skipping numeric constants such as 0x1f and 16#ff.
func arithNames(s string) []string {
	var names []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			for i < len(s) && (isNameByte(s[i]) || s[i] == '#' || s[i] == '@') {
				i++
			}
		case isNameByte(c):
			j := i
			for j < len(s) && isNameByte(s[j]) {
				j++
			}
			names = append(names, s[i:j])
			i = j
		default:
			i++
		}
	}
	return names
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// leadingName returns the variable name at the start of s, if any.
func leadingName(s string) string {
	i := 0
	for i < len(s) && isNameByte(s[i]) {
		i++
	}
	if i == 0 || s[0] >= '0' && s[0] <= '9' {
		return ""
	}
	return s[:i]
}
