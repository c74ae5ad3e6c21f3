package shellclass

import (
	"strings"
)

// This file finds the options through which a command writes a file or
// runs a program other than itself: git diff --output, sort -o, go test
// -exec, npm --script-shell and the like. A permission rule that allows a
// command is meant for what the command does, not for such a side door,
// so a file an option writes is listed in Result.Writes (like a
// redirection, it needs its own yes) and a program an option runs makes
// the line opaque. The scan is independent of the read-only checks and of
// other options: it reads every word, so an unknown option elsewhere
// cannot hide one of these, and a word it cannot read (known only at run
// time, and possibly an option) counts as one of them.

// escapeSpec lists, for one program or subcommand, the options that write
// a file or run a program.
type escapeSpec struct {
	// writeLong and runLong are long option names, without dashes.
	writeLong, runLong []string
	// writeShort and runShort are option letters; the value is the rest
	// of the word or the next word.
	writeShort, runShort string
	// writeFlags and writeFlagShort are options without a value that
	// make the program write files it names itself (curl -O).
	writeFlags     []string
	writeFlagShort string
	// abbrev says long options may be abbreviated to any unique prefix
	// (GNU getopt, git, npm), so any prefix counts.
	abbrev bool
	// goStyle says long options take one dash or two (-o, --o, -o=x).
	goStyle bool
	// single says long options take one dash (find's -fprint).
	single bool
}

// optionEscapes checks the words of a command (args excludes the program
// name prog) for options that write files or run programs.
func (w *walker) optionEscapes(p *program, prog string, args []arg) {
	key, rest := prog, args
	if p.subcommand != nil {
		key, rest = p.subcommand(prog, args)
	}
	spec, ok := p.subEscapes[key]
	if !ok && p.escapes != nil {
		spec, ok, rest = *p.escapes, true, args
	}
	if ok {
		w.scanEscapes(key, spec, rest)
	}
	if p.moreEscapes != nil {
		p.moreEscapes(w, prog, args)
	}
}

// scanEscapes reads every word of args against spec.
func (w *walker) scanEscapes(what string, spec escapeSpec, args []arg) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.lit {
			if a.dashSafe {
				continue
			}
			if len(spec.runLong) > 0 || spec.runShort != "" {
				w.hidef("%q is given %s, which could be an option that runs a program", what, a.text)
				return
			}
			w.escapeWrite(what, "", a)
			continue
		}
		if a.text == "--" && !spec.single {
			return
		}
		next := func() arg {
			if i+1 < len(args) {
				return args[i+1]
			}
			return litArg("")
		}
		if name, val, hasVal, ok := longOption(a.text, spec); ok {
			value := litArg(val)
			if !hasVal {
				value = next()
			}
			switch {
			case matchLong(name, spec.writeFlags, spec.abbrev) && !hasVal:
				w.escapeWrite(what, a.text, runtimeArg("files it names itself"))
			case matchLong(name, spec.writeLong, spec.abbrev):
				w.escapeWrite(what, a.text, value)
			case matchLong(name, spec.runLong, spec.abbrev):
				w.hidef("%q %s runs a program the rules cannot see", what, a.text)
				return
			}
			continue
		}
		if len(a.text) < 2 || a.text[0] != '-' || spec.goStyle || spec.single {
			continue
		}
		for j := 1; j < len(a.text); j++ {
			c := a.text[j]
			value := litArg(a.text[j+1:])
			if j+1 == len(a.text) {
				value = next()
			}
			switch {
			case strings.IndexByte(spec.writeFlagShort, c) >= 0:
				w.escapeWrite(what, "-"+string(c), runtimeArg("files it names itself"))
			case strings.IndexByte(spec.writeShort, c) >= 0:
				w.escapeWrite(what, "-"+string(c), value)
				j = len(a.text)
			case strings.IndexByte(spec.runShort, c) >= 0:
				w.hidef("%q -%c runs a program the rules cannot see", what, c)
				return
			}
		}
	}
}

// longOption splits a word into a long option's name and value, by the
// program's convention.
func longOption(t string, spec escapeSpec) (name, val string, hasVal, ok bool) {
	switch {
	case strings.HasPrefix(t, "--") && !spec.single:
		name = t[2:]
	case strings.HasPrefix(t, "-") && (spec.goStyle || spec.single) && len(t) > 1:
		name = t[1:]
	default:
		return "", "", false, false
	}
	name, val, hasVal = strings.Cut(name, "=")
	return name, val, hasVal, name != ""
}

// matchLong reports whether name is one of names, or, with abbrev, a
// prefix of one.
func matchLong(name string, names []string, abbrev bool) bool {
	for _, n := range names {
		if name == n || abbrev && strings.HasPrefix(n, name) {
			return true
		}
	}
	return false
}

// quietTargets are output files that are not files: standard output and
// the null device.
var quietTargets = map[string]bool{"-": true, "/dev/null": true, "/dev/stdout": true, "/dev/stderr": true}

// escapeWrite records a file an option (or, with opt "", an operand)
// writes.
func (w *walker) escapeWrite(what, opt string, value arg) {
	if value.lit && quietTargets[value.text] {
		return
	}
	w.writes = append(w.writes, value.text)
	w.use(value, true)
	if opt == "" {
		w.denyf("%q may write to %s", what, quoteArg(value))
		return
	}
	w.denyf("%q %s writes to %s", what, opt, quoteArg(value))
}

// secondOperandEscape records the output file of a program that writes
// its second operand (uniq IN OUT).
func (w *walker) secondOperandEscape(prog string, args []arg, shortValues string, longValues []string) {
	w.secondOperand(prog, args, func(t string) bool {
		if strings.HasPrefix(t, "--") {
			return matchLong(t[2:], longValues, true) && !strings.Contains(t, "=")
		}
		return len(t) == 2 && strings.IndexByte(shortValues, t[1]) >= 0
	})
}

// secondOperand finds the second operand; takesValue says an option word
// takes the next word as its value.
func (w *walker) secondOperand(prog string, args []arg, takesValue func(string) bool) {
	n := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.lit && !a.dashSafe:
			w.hidef("%q is given %s, which could be an option or its output file", prog, a.text)
			return
		case a.lit && len(a.text) > 1 && a.text[0] == '-':
			if takesValue(a.text) {
				i++
			}
			continue
		}
		n++
		if n == 2 {
			w.escapeWrite(prog, "", a)
			return
		}
	}
}
