package shellclass

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// arg is one argument of a command, as far as it is known before the shell
// runs the line.
type arg struct {
	// text is the value when lit; otherwise the source text of the word.
	text string
	// lit reports that the value is known and is exactly one word.
	lit bool
	// prefix is text every word the argument becomes starts with.
	prefix string
	// dashSafe reports that no word the argument becomes can start with
	// "-", so it cannot be taken for an option.
	dashSafe bool
	// single reports that the argument becomes exactly one word.
	single bool
}

// litArg returns a plain literal argument.
func litArg(s string) arg {
	return arg{text: s, lit: true, prefix: s, dashSafe: !strings.HasPrefix(s, "-"), single: true}
}

// runtimeArg returns an argument that is only known at run time and could
// be anything, options included.
func runtimeArg(text string) arg {
	return arg{text: text}
}

// word describes a for matching rules.
func (a arg) word() Word {
	maybeOpt := !a.dashSafe
	if a.lit {
		maybeOpt = strings.HasPrefix(a.text, "-") || strings.HasPrefix(a.text, "+")
	}
	return Word{Text: a.text, Lit: a.lit, Many: !a.lit && !a.single, MaybeOption: maybeOpt}
}

// isOpt reports whether a is a literal that looks like an option.
func (a arg) isOpt() bool {
	return a.lit && len(a.text) > 1 && a.text[0] == '-'
}

// is reports whether a is the literal s.
func (a arg) is(s string) bool {
	return a.lit && a.text == s
}

// wordArg walks a word's expansions and describes it as an argument.
func (w *walker) wordArg(word *syntax.Word) arg {
	w.word(word)
	return w.describe(word)
}

// describe works out what is known about a word's value without running
// anything.
func (w *walker) describe(word *syntax.Word) arg {
	src := w.text(word)
	var val strings.Builder
	lit := true      // every part is known text
	special := false // an unquoted glob, brace expansion or tilde
	splits := false  // an unquoted expansion may split into several words
	multi := false   // globs and brace expansion may yield several words
	prefixEnd := -1
	end := func() {
		if prefixEnd < 0 {
			prefixEnd = val.Len()
		}
	}
	bracket := strings.Contains(src, "]")
	braces := strings.Contains(src, ",") || strings.Contains(src, "..")
	for i, p := range word.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			s := p.Value
			for j := 0; j < len(s); j++ {
				c := s[j]
				if c == '\\' {
					if j+1 < len(s) {
						if s[j+1] != '\n' {
							val.WriteByte(s[j+1])
						}
						j++
						continue
					}
				}
				switch {
				case c == '*' || c == '?' || c == '[' && bracket:
					special, multi = true, true
					end()
				case c == '{' && braces:
					special, multi = true, true
					end()
				case c == '~' && i == 0 && j == 0:
					special = true
					val.WriteByte(c)
					end()
					continue
				case c == '=' && i == 0 && j == 0 && w.zsh:
					// zsh replaces =name with the path of the program.
					special = true
					end()
				}
				val.WriteByte(c)
			}
		case *syntax.SglQuoted:
			// $'...' decodes escapes in bash; a POSIX shell such as
			// dash reads a "$" and a quoted string.
			if p.Dollar && (strings.Contains(p.Value, `\`) || w.lang == syntax.LangPOSIX) {
				lit = false
				end()
				continue
			}
			val.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				// $"..." is translated through message catalogs,
				// which can turn it into any text.
				lit = false
				end()
				continue
			}
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					val.WriteString(unescapeDouble(l.Value))
					continue
				}
				lit = false
				end()
			}
		case *syntax.ProcSubst:
			lit = false
			if prefixEnd < 0 && val.Len() == 0 {
				val.WriteString("/dev/fd/")
			}
			end()
		case *syntax.ExtGlob:
			lit, special, multi = false, true, true
			end()
		default:
			lit, splits = false, true
			end()
		}
	}
	value := val.String()
	prefix := value
	if prefixEnd >= 0 {
		prefix = value[:prefixEnd]
	}
	if lit && !special {
		return litArg(value)
	}
	if src == "" {
		src = value
	}
	return arg{
		text:     src,
		prefix:   prefix,
		dashSafe: !splits && prefix != "" && prefix[0] != '-',
		single:   !splits && !multi,
	}
}

// unescapeDouble removes the backslashes that are special inside double
// quotes.
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
				b.WriteByte(s[i+1])
				i++
				continue
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
