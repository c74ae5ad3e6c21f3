package builtin

import (
	"fmt"
	"strings"
)

// notFoundHint explains why old is not in content, with a guess at the
// cause when a looser comparison finds it.
func notFoundHint(path, content, old string) string {
	msg := fmt.Sprintf("old_string was not found in %s.", path)
	lfContent := strings.ReplaceAll(content, "\r\n", "\n")
	lfOld := strings.ReplaceAll(old, "\r\n", "\n")
	switch {
	case hasLinePrefixes(lfOld) && strings.Contains(lfContent, stripLinePrefixes(lfOld)):
		msg += " It seems to include the line numbers Read puts before each line; leave them out and keep only the file's text."
	case strings.Contains(squashSpace(lfContent), squashSpace(lfOld)):
		msg += " It matches only when spacing is ignored, so indentation (tabs or spaces) or trailing spaces differ. Copy the text exactly as Read shows it."
	case strings.Contains(strings.ToLower(lfContent), strings.ToLower(lfOld)):
		msg += " It matches only when letter case is ignored; check upper and lower case."
	default:
		msg += " The text must match exactly, including whitespace. Read the file again to see its current contents."
	}
	return msg
}

// cutLinePrefix removes what Read puts before each line, spaces, a
// number and a tab, reporting whether l had it.
func cutLinePrefix(l string) (string, bool) {
	i := 0
	for i < len(l) && l[i] == ' ' {
		i++
	}
	digits := i
	for i < len(l) && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	if i == digits || i >= len(l) || l[i] != '\t' {
		return l, false
	}
	return l[i+1:], true
}

func hasLinePrefixes(s string) bool {
	seen := 0
	for l := range strings.SplitSeq(s, "\n") {
		if l == "" {
			continue
		}
		if _, ok := cutLinePrefix(l); !ok {
			return false
		}
		seen++
	}
	return seen > 0
}

func stripLinePrefixes(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i], _ = cutLinePrefix(l)
	}
	return strings.Join(lines, "\n")
}

// squashSpace reduces every line to its words separated by single spaces,
// dropping blank lines.
func squashSpace(s string) string {
	var b strings.Builder
	for line := range strings.SplitSeq(s, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			b.WriteString(strings.Join(f, " "))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// editSnippet shows the changed region of the new contents with a few
// lines around it, numbered like Read.
func editSnippet(p *editPlan) string {
	const around, maxChanged, maxWidth = 3, 30, 500
	lines := strings.Split(strings.ReplaceAll(p.content, "\r\n", "\n"), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	start := strings.Count(p.content[:p.first], "\n") // 0-based line of the change
	changed := strings.Count(strings.ReplaceAll(p.newText, "\r\n", "\n"), "\n") + 1
	from := max(start-around, 0)
	to := min(start+changed+around, len(lines)) // exclusive
	var b []byte
	for i := from; i < to; i++ {
		if i >= start+maxChanged && i < start+changed {
			b = fmt.Appendf(b, "     …\t(%d more changed lines)\n", start+changed-i)
			i = start + changed - 1
			continue
		}
		text, cut := cutRunes(lines[i], maxWidth)
		if cut {
			text += " …"
		}
		b = numbered(b, i+1, text)
	}
	return validUTF8(string(b))
}
