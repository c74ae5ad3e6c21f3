package gitignore

// This file holds the glob matcher gitignore patterns use. It follows the
// behaviour of git's wildmatch with the pathname flag set:
//
//   - '*' matches any run of bytes except '/'; '?' matches one byte
//     except '/'.
//   - '**' between slashes (or at either end of the pattern) matches any
//     number of whole directories, including none; anywhere else it acts
//     like '*'.
//   - '[...]' is a bracket expression with ranges, '!' or '^' negation and
//     POSIX classes such as [:alpha:]; it never matches '/'.
//   - A backslash makes the next byte literal.
//
// Matching works on bytes, as git does.

type wmResult int

const (
	wmMatch wmResult = iota
	wmNoMatch
	// wmAbortAll means no later start position can match either.
	wmAbortAll
	// wmAbortToStarStar means only an enclosing '**' may still match.
	wmAbortToStarStar
)

// wildmatch reports whether text matches the whole of pattern.
func wildmatch(pattern, text string) bool {
	return dowild(pattern, 0, text, 0) == wmMatch
}

func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func dowild(p string, pi int, text string, ti int) wmResult {
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pc := p[pi]
		if ti >= len(text) && pc != '*' {
			return wmAbortAll
		}
		var t byte
		if ti < len(text) {
			t = text[ti]
		}
		switch pc {
		case '\\':
			pi++
			if pi >= len(p) {
				// A trailing backslash matches nothing.
				return wmAbortAll
			}
			if t != p[pi] {
				return wmNoMatch
			}
		case '?':
			if t == '/' {
				return wmNoMatch
			}
		case '*':
			var matchSlash bool
			pi++
			if at(p, pi) == '*' {
				prev := pi - 2
				for at(p, pi) == '*' {
					pi++
				}
				next := at(p, pi)
				if (prev < 0 || p[prev] == '/') &&
					(pi >= len(p) || next == '/' || (next == '\\' && at(p, pi+1) == '/')) {
					// "**/" may match no directory at all.
					if next == '/' && dowild(p, pi+1, text, ti) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				}
			}
			if pi >= len(p) {
				// A trailing star matches the rest, but a single star
				// must not cross a slash.
				if !matchSlash {
					for i := ti; i < len(text); i++ {
						if text[i] == '/' {
							return wmNoMatch
						}
					}
				}
				return wmMatch
			}
			if !matchSlash && p[pi] == '/' {
				// "*/" matches the rest of the current directory name.
				i := ti
				for i < len(text) && text[i] != '/' {
					i++
				}
				if i >= len(text) {
					return wmNoMatch
				}
				ti = i
				// The loop step consumes the slash in both.
				continue
			}
			for ; ti < len(text); ti++ {
				r := dowild(p, pi, text, ti)
				if r != wmNoMatch {
					if !matchSlash || r != wmAbortToStarStar {
						return r
					}
				} else if !matchSlash && text[ti] == '/' {
					return wmAbortToStarStar
				}
			}
			return wmAbortAll
		case '[':
			next, r := matchBracket(p, pi, t)
			if r != wmMatch {
				return r
			}
			pi = next
		default:
			if t != pc {
				return wmNoMatch
			}
		}
	}
	if ti < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

// matchBracket matches byte t against the bracket expression starting at
// p[pi] == '['. It returns the index of the closing ']' on success.
func matchBracket(p string, pi int, t byte) (int, wmResult) {
	pi++
	pc := at(p, pi)
	if pc == '^' {
		pc = '!'
	}
	negated := pc == '!'
	if negated {
		pi++
		pc = at(p, pi)
	}
	var prev byte
	matched := false
	for {
		if pi >= len(p) {
			return pi, wmAbortAll
		}
		switch {
		case pc == '\\':
			pi++
			if pi >= len(p) {
				return pi, wmAbortAll
			}
			pc = p[pi]
			if t == pc {
				matched = true
			}
		case pc == '-' && prev != 0 && pi+1 < len(p) && p[pi+1] != ']':
			pi++
			pc = p[pi]
			if pc == '\\' {
				pi++
				if pi >= len(p) {
					return pi, wmAbortAll
				}
				pc = p[pi]
			}
			if t <= pc && t >= prev {
				matched = true
			}
			pc = 0 // a range cannot start another range
		case pc == '[' && at(p, pi+1) == ':':
			end := pi + 2
			for end < len(p) && p[end] != ']' {
				end++
			}
			if end >= len(p) {
				return end, wmAbortAll
			}
			if end-pi-2 == 0 || p[end-1] != ':' {
				// Not a class after all: a literal '['.
				if t == '[' {
					matched = true
				}
				break
			}
			ok, known := inClass(p[pi+2:end-1], t)
			if !known {
				return end, wmAbortAll
			}
			if ok {
				matched = true
			}
			pi = end
			pc = 0
		default:
			if t == pc {
				matched = true
			}
		}
		prev = pc
		pi++
		pc = at(p, pi)
		if pc == ']' {
			break
		}
	}
	if matched == negated || t == '/' {
		return pi, wmNoMatch
	}
	return pi, wmMatch
}

// inClass tests t against a POSIX character class name. known is false
// for an unknown name, which makes the whole pattern fail as in git.
func inClass(name string, t byte) (ok, known bool) {
	isUpper := t >= 'A' && t <= 'Z'
	isLower := t >= 'a' && t <= 'z'
	isDigit := t >= '0' && t <= '9'
	switch name {
	case "alnum":
		return isUpper || isLower || isDigit, true
	case "alpha":
		return isUpper || isLower, true
	case "blank":
		return t == ' ' || t == '\t', true
	case "cntrl":
		return t < 0x20 || t == 0x7f, true
	case "digit":
		return isDigit, true
	case "graph":
		return t > 0x20 && t < 0x7f, true
	case "lower":
		return isLower, true
	case "print":
		return t >= 0x20 && t < 0x7f, true
	case "punct":
		return t > 0x20 && t < 0x7f && !isUpper && !isLower && !isDigit, true
	case "space":
		return t == ' ' || (t >= '\t' && t <= '\r'), true
	case "upper":
		return isUpper, true
	case "xdigit":
		return isDigit || (t >= 'a' && t <= 'f') || (t >= 'A' && t <= 'F'), true
	}
	return false, false
}
