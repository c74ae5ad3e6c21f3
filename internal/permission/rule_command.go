package permission

import (
	"strings"

	"github.com/ponder-agent/ponder/internal/permission/shellclass"
)

// This file matches the specifier of a Bash rule against one simple
// command, word by word. "git diff:*" and "git diff *" are prefixes: the
// command may go on after those words; anything else must be the whole
// command.
//
// Allow rules and the rules that forbid (deny, ask) are matched
// differently, each erring on its own safe side:
//
//   - An allow rule matches a command only as written: every word it
//     names must be a literal word of the command, in the same place.
//     Only a path into a system binary directory is the program by its
//     base name (/usr/bin/git is git).
//   - A deny or ask rule matches the program under any path (./rm, /bin/rm),
//     looks past options before the words it names (git -C . push, npm
//     --prefix x run), and treats a word known only at run time as one
//     that could be anything. A match that depends on such a word, or on
//     guessing how options take values, is a "may match": the call asks.

// commandSpec is a Bash rule's specifier split into words.
type commandSpec struct {
	words  []string
	prefix bool // the command may go on after words
}

// parseCommandSpec splits a specifier such as "git diff:*".
func parseCommandSpec(spec string) commandSpec {
	body, prefix := strings.CutSuffix(spec, ":*")
	if !prefix {
		body, prefix = strings.CutSuffix(spec, " *")
	}
	body = strings.TrimSpace(body)
	words, ok := shellclass.SplitWords(body)
	if !ok {
		words = strings.Fields(body)
	}
	return commandSpec{words: words, prefix: prefix}
}

// allowMatches reports whether spec allows the command as written.
func allowMatches(spec commandSpec, c shellclass.Command) bool {
	ws := c.Words
	if len(spec.words) == 0 || len(ws) < len(spec.words) || !spec.prefix && len(ws) != len(spec.words) {
		return false
	}
	for i, sw := range spec.words {
		w := ws[i]
		if !w.Lit {
			return false
		}
		if w.Text == sw || i == 0 && shellclass.Program(w.Text) == shellclass.Program(sw) {
			continue
		}
		return false
	}
	return true
}

// verdict is how surely a forbidding rule matches a command.
type verdict int

const (
	noMatch  verdict = iota
	mayMatch         // the command might be what the rule names
	matches          // the command is what the rule names
)

// restrictMatches reports how surely a deny or ask rule matches c. A
// command that is only a guess (Command.Maybe) may match at most.
func restrictMatches(spec commandSpec, c shellclass.Command) verdict {
	v := restrictMatchesWords(spec, shellclass.AsGitCommand(c.Words))
	if c.Maybe {
		v = min(v, mayMatch)
	}
	return v
}

// restrictMatchesWords is restrictMatches for a command's words.
func restrictMatchesWords(spec commandSpec, ws []shellclass.Word) verdict {
	if len(spec.words) == 0 || len(ws) == 0 {
		return noMatch
	}
	if !ws[0].Lit {
		return mayMatch
	}
	prog := shellclass.BaseName(ws[0].Text)
	if prog != shellclass.BaseName(spec.words[0]) {
		return noMatch
	}
	best := noMatch
	for _, f := range optionSkips(prog, ws) {
		v := wordsMatch(spec.words[1:], ws[f.start:], spec.prefix, map[[2]int]verdict{}, 0, 0)
		if v == matches && !f.sure {
			v = mayMatch
		}
		best = max(best, v)
	}
	return best
}

// skip is one way of reading a command's leading options: the words from
// start on follow them. sure says the options were read without guessing.
type skip struct {
	start int
	sure  bool
}

// optionSkips returns the ways of reading the options at the start of a
// command's arguments (ws[0] is the program).
func optionSkips(prog string, ws []shellclass.Word) []skip {
	// Programs whose leading options are well known say which take a
	// value (shellclass.LeadingValueOptions); for any other program a
	// leading option may or may not take one, and both readings are
	// tried.
	table, known := shellclass.LeadingValueOptions(prog)
	takesValue := func(w shellclass.Word) (value, sure bool) {
		if !known || !w.Lit {
			return false, false
		}
		if strings.HasPrefix(w.Text, "--") && strings.Contains(w.Text, "=") {
			return false, true
		}
		for _, o := range table {
			if w.Text == o {
				return true, true
			}
			// -C. and -ccore.x=y carry their value.
			if len(o) == 2 && o[0] == '-' && strings.HasPrefix(w.Text, o) && len(w.Text) > 2 && w.Text[1] != '-' {
				return false, true
			}
		}
		return false, true
	}
	seen := map[int]bool{}
	var out []skip
	var walk func(i int, sure bool)
	walk = func(i int, sure bool) {
		if i > len(ws) || seen[i] && !sure {
			return
		}
		seen[i] = true
		out = append(out, skip{start: i, sure: sure})
		if i >= len(ws) {
			return
		}
		w := ws[i]
		switch {
		case w.Lit && w.Text == "--":
			walk(i+1, sure)
		case w.MaybeOption:
			value, known := takesValue(w)
			if known {
				if value {
					walk(i+2, sure)
				} else {
					walk(i+1, sure)
				}
				return
			}
			walk(i+1, false)
			walk(i+2, false)
		}
	}
	walk(1, true)
	return out
}

// wordsMatch matches the rule's words after the program against the
// command's words from some point on. A word only known at run time may
// be anything; one that may split (Many) may also be no word or several.
func wordsMatch(spec []string, ws []shellclass.Word, prefix bool, memo map[[2]int]verdict, i, j int) verdict {
	key := [2]int{i, j}
	if v, ok := memo[key]; ok {
		return v
	}
	v := noMatch
	switch {
	case i == len(spec):
		v = matches
		if !prefix {
			for _, w := range ws[j:] {
				if !w.Many {
					v = noMatch
					break
				}
				v = mayMatch
			}
		}
	case j == len(ws):
		v = noMatch
	case ws[j].Lit:
		if ws[j].Text == spec[i] {
			v = wordsMatch(spec, ws, prefix, memo, i+1, j+1)
		}
	case ws[j].Many:
		v = max(
			min(wordsMatch(spec, ws, prefix, memo, i, j+1), mayMatch),   // no word
			min(wordsMatch(spec, ws, prefix, memo, i+1, j+1), mayMatch), // one word
			min(wordsMatch(spec, ws, prefix, memo, i+1, j), mayMatch),   // several
		)
	default:
		v = min(wordsMatch(spec, ws, prefix, memo, i+1, j+1), mayMatch)
	}
	memo[key] = v
	return v
}
