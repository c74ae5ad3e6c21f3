package shellclass

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file holds the checks for code that the shell running it and the
// parser could read differently. Such a gap would let a command hide from
// the walk, so code that falls in one is refused as a whole, whatever it
// contains.

// langName names a dialect for messages.
func langName(l syntax.LangVariant) string {
	switch l {
	case syntax.LangPOSIX:
		return "a POSIX shell such as dash"
	case syntax.LangZsh:
		return "zsh"
	case syntax.LangMirBSDKorn:
		return "mksh"
	}
	return "bash"
}

// parseAgreed parses src in every dialect of langs and returns the first
// parse. The other dialects must read the code the same way, node for
// node: code run by "sh" may meet dash or bash, and the two disagree on
// forms such as (( ... )), [[ ... ]] and &>.
func parseAgreed(src string, langs []syntax.LangVariant) (*syntax.File, string) {
	var first *syntax.File
	var print []string
	for i, lang := range langs {
		f, err := syntax.NewParser(syntax.Variant(lang), syntax.KeepComments(true)).Parse(strings.NewReader(src), "")
		if err != nil {
			if i == 0 {
				return nil, "cannot parse: " + err.Error()
			}
			return nil, fmt.Sprintf("cannot be checked: %s would read it differently (%v)", langName(lang), err)
		}
		fp := fingerprint(f)
		if i == 0 {
			first, print = f, fp
			continue
		}
		if !equalStrings(fp, print) {
			return nil, fmt.Sprintf("cannot be checked: %s and %s would read it differently", langName(langs[0]), langName(lang))
		}
	}
	return first, ""
}

// fingerprint lists every node of f with its kind, position and, for
// literal text, its value, so that two parses can be compared.
func fingerprint(f *syntax.File) []string {
	var out []string
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			return true
		}
		s := fmt.Sprintf("%T %d %d", n, n.Pos().Offset(), n.End().Offset())
		switch n := n.(type) {
		case *syntax.Lit:
			s += " " + n.Value
		case *syntax.SglQuoted:
			s += fmt.Sprintf(" %v", n.Dollar)
		case *syntax.DblQuoted:
			s += fmt.Sprintf(" %v", n.Dollar)
		}
		out = append(out, s)
		return true
	})
	return out
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// parserGaps returns why bash might run code in src that the parse f does
// not show, or "":
//
//   - A here-document ends, for bash, at a line that starts with its
//     delimiter and closes a command substitution ("EOF)"), or that reads
//     as the delimiter once backslash-newlines are joined ("EO\" + "F");
//     the parser ends it only at a line that is exactly the delimiter. Any
//     line that starts with a delimiter without being it is refused.
//   - A comment that does not end at the end of its line, as the parser
//     reads one that ends with a backslash: bash ends every comment at the
//     newline.
//   - An extended glob such as !(cmd): the parser always reads it as a
//     pattern, bash without "shopt -s extglob" reads "!" and a subshell.
func parserGaps(f *syntax.File, src string) string {
	var delims []string
	reason := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if reason != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.Redirect:
			if n.Op == syntax.Hdoc || n.Op == syntax.DashHdoc {
				d, ok := plainDelimiter(n.Word)
				if !ok {
					reason = "has a here-document whose delimiter is not plain text"
					return false
				}
				delims = append(delims, d)
			}
		case *syntax.Comment:
			// For bash a comment runs to the end of its line, whatever
			// the line ends with.
			start := int(n.Hash.Offset()) + 1
			end := strings.IndexByte(src[min(start, len(src)):], '\n')
			line := src[min(start, len(src)):]
			if end >= 0 {
				line = line[:end]
			}
			if n.Text != line {
				reason = "has a comment that ends with a backslash, which bash does not join to the next line"
			}
		case *syntax.ExtGlob:
			reason = fmt.Sprintf("uses the pattern %s(%s), which bash reads as a command unless extglob is on", n.Op, n.Pattern.Value)
		}
		return true
	})
	if reason != "" || len(delims) == 0 {
		return reason
	}
	lines := strings.Split(src, "\n")
	for i, line := range lines {
		joined := line
		for j := i; strings.HasSuffix(joined, `\`) && j+1 < len(lines); j++ {
			joined = joined[:len(joined)-1] + lines[j+1]
		}
		phys := strings.TrimLeft(line, "\t")
		logical := strings.TrimLeft(joined, "\t")
		for _, d := range delims {
			if phys != d && (strings.HasPrefix(phys, d) || strings.HasPrefix(logical, d)) {
				return fmt.Sprintf("has a line starting with the here-document delimiter %q that bash and this check could end the here-document at differently", d)
			}
		}
	}
	return ""
}

// plainDelimiter returns a here-document's delimiter with its quotes
// removed, when it is plain text.
func plainDelimiter(word *syntax.Word) (string, bool) {
	if word == nil {
		return "", false
	}
	var b strings.Builder
	for _, p := range word.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(strings.ReplaceAll(p.Value, `\`, ""))
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	d := b.String()
	return d, d != "" && !strings.ContainsAny(d, "\n\r")
}

// collectArrays adds to arrays the variables f may turn into arrays:
// array and element assignments, declarations with -a or -A, read -a and
// mapfile. It errs on the side of listing too many.
func collectArrays(f *syntax.File, arrays map[string]bool) {
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name != nil && (n.Array != nil || n.Index != nil) {
				arrays[n.Name.Value] = true
			}
		case *syntax.DeclClause:
			for _, a := range n.Args {
				if a.Name != nil {
					arrays[a.Name.Value] = arrays[a.Name.Value] || a.Array != nil
				}
			}
			listed := false
			for _, a := range n.Args {
				if a.Naked && a.Value != nil && strings.HasPrefix(a.Value.Lit(), "-") && strings.ContainsAny(a.Value.Lit(), "aA") {
					listed = true
				}
			}
			if listed {
				for _, a := range n.Args {
					if a.Name != nil {
						arrays[a.Name.Value] = true
					} else if a.Value != nil {
						name, _, _ := strings.Cut(a.Value.Lit(), "=")
						arrays[name] = true
					}
				}
			}
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				return true
			}
			if lookup(n.Args[0].Lit()).setsArrays {
				arrays["MAPFILE"] = true
				for _, a := range n.Args[1:] {
					for _, part := range strings.Split(strings.TrimLeft(a.Lit(), "-"), "=") {
						if validName(part) {
							arrays[part] = true
						}
					}
				}
			}
		}
		return true
	})
}
