package shellclass

import (
	"path"
	"strings"
)

// This file lists the files a line's commands name to read or to write,
// so that the rules for reading files (Read) and for changing them (Edit)
// can be applied to them: the operands of programs known to read their
// files (cat, grep, base64, ...), input redirections, and the targets of
// output redirections and of programs that write (tee, sed -i, cp, mv,
// dd of=, ...). Only literal words are listed; a relative path is given
// with the directory of an earlier "cd" in front. The list is what the
// line shows, no more: what a program reads on its own, or a word only
// known at run time, is the kernel's to stop (the sandbox's deny layer).

// FileUse is one file a command names.
type FileUse struct {
	// Path is the file as written, with the directory of a cd earlier on
	// the line put in front of a relative path.
	Path string
	// Write says the command writes (or removes) the file; otherwise it
	// reads it.
	Write bool
	// Named says only that a word of the command names the file: what
	// the program does with it is not known, so it may read or write it.
	Named bool
}

// cwd is what the walk knows of the directory commands run in: the
// directory of the cds so far, relative to where the line starts ("" for
// that directory itself), or unknown.
type cwd struct {
	dir     string
	unknown bool
}

// at returns p as seen from where the line starts, or false when the
// directory is unknown.
func (c cwd) at(p string) (string, bool) {
	if path.IsAbs(p) || strings.HasPrefix(p, "~") {
		return p, true
	}
	if c.unknown {
		return "", false
	}
	if c.dir == "" {
		return p, true
	}
	return path.Join(c.dir, p), true
}

// use records a file a command names.
func (w *walker) use(a arg, write bool) {
	if !a.lit && strings.HasPrefix(a.text, "~/") && !strings.ContainsAny(a.text, "$`*?[{\\'\"") {
		a = litArg(a.text) // ~/path: the home directory's
	}
	if !a.lit || a.text == "" || a.text == "-" || safeOutputs[a.text] {
		return
	}
	if p, ok := w.cwd.at(a.text); ok {
		w.files = append(w.files, FileUse{Path: p, Write: write})
	}
}

// changeDir follows a cd: at the top level of the line a literal one
// moves the directory later paths are relative to; any other makes it
// unknown.
func (w *walker) changeDir(args []arg) {
	var target *arg
	for i := range args {
		if !args[i].isOpt() {
			target = &args[i]
			break
		}
	}
	switch {
	case w.nest > 0 || w.depth > 1:
		w.cwd.unknown = true
	case target == nil || !target.lit || target.text == "-" || strings.HasPrefix(target.text, "~"):
		w.cwd.unknown = true
	case path.IsAbs(target.text):
		w.cwd = cwd{dir: path.Clean(target.text)}
	default:
		if d, ok := w.cwd.at(target.text); ok {
			w.cwd.dir = path.Clean(d)
		}
	}
}

// fileUses records the files one command names: those its known
// options and operands read or write, and, for rules that forbid files
// whatever is done with them, every word that could name one.
func (w *walker) fileUses(p *program, prog string, args []arg) {
	if !p.knownFileUse() {
		w.mentions(args)
	}
	if p.files.use != nil {
		p.files.use(w, prog, args)
		return
	}
	operands, values := splitOperands(p, args)
	if p.files.writes {
		for _, o := range operands {
			w.use(o, true)
		}
		return
	}
	if p.files.reads {
		given := hasShortOrLong(args, 'e', "regexp") || hasShortOrLong(args, 'f', "file")
		for _, o := range skipFirst(operands, p.files.patternFirst && !given) {
			w.use(o, false)
		}
		for _, v := range values {
			if v.file {
				w.use(v.arg, false)
			}
		}
	}
}

// valueArg is the value of an option, and whether it names a file.
type valueArg struct {
	arg  arg
	file bool
}

// splitOperands parses args loosely: words starting with "-" are options
// and the rest operands, except after "--". The values of the options
// the program's files.values lists are set aside (with whether they name
// a file), so that "head -n 5 f" does not take 5 for a file.
func splitOperands(p *program, args []arg) ([]arg, []valueArg) {
	letters := p.files.values
	if letters == "" {
		letters = "nc"
	}
	letters, fileLetters, _ := strings.Cut(letters, "/")
	var operands []arg
	var values []valueArg
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.is("--") {
			operands = append(operands, args[i+1:]...)
			break
		}
		if !a.isOpt() {
			operands = append(operands, a)
			continue
		}
		if strings.HasPrefix(a.text, "--") {
			continue
		}
		// The last letter of a cluster may take the next word.
		c := a.text[len(a.text)-1]
		for j := 1; j < len(a.text)-1; j++ {
			if strings.IndexByte(letters, a.text[j]) >= 0 {
				c = 0 // an earlier letter took the rest of the word
				break
			}
		}
		if c != 0 && strings.IndexByte(letters, c) >= 0 && i+1 < len(args) {
			values = append(values, valueArg{arg: args[i+1], file: strings.IndexByte(fileLetters, c) >= 0})
			i++
		}
	}
	return operands, values
}

func skipFirst(a []arg, skip bool) []arg {
	if skip && len(a) > 0 {
		return a[1:]
	}
	return a
}

// hasShortOrLong reports whether a short option letter (alone or in a
// cluster) or a long option is given.
func hasShortOrLong(args []arg, letter byte, long string) bool {
	for _, a := range args {
		if a.is("--") {
			return false
		}
		if c := shortCluster(a); c != "" && strings.IndexByte(c, letter) >= 0 {
			return true
		}
		if a.lit && (a.text == "--"+long || strings.HasPrefix(a.text, "--"+long+"=")) {
			return true
		}
	}
	return false
}

// hasPerlInPlace reports perl -i (editing files in place), alone or in a
// cluster such as -pi.
func hasPerlInPlace(args []arg) bool {
	for _, a := range args {
		if c := shortCluster(a); c != "" && strings.ContainsRune(c, 'i') {
			return true
		}
	}
	return false
}

// targetDirectory returns the value of -t / --target-directory.
func targetDirectory(args []arg) *arg {
	for i, a := range args {
		if a.is("-t") && i+1 < len(args) {
			return &args[i+1]
		}
		if v, ok := strings.CutPrefix(a.text, "--target-directory="); ok && a.lit {
			t := litArg(v)
			return &t
		}
	}
	return nil
}

// mentions records every literal word of a command as a file it may
// read or write, when the program's use of its words is not known: an operand (gzip -c .env), the
// value of a long option (--output=f) and the rest of a short option,
// which may be its attached value (-of). Only rules that forbid a file
// outright use these; a word that names no such file costs nothing.
func (w *walker) mentions(args []arg) {
	for _, a := range args {
		if !a.lit || a.text == "" {
			continue
		}
		words := []string{a.text}
		if a.isOpt() {
			if _, v, ok := strings.Cut(a.text, "="); ok {
				words = append(words, v)
			}
			if !strings.HasPrefix(a.text, "--") && len(a.text) > 2 {
				words = append(words, a.text[2:])
			}
		}
		for _, t := range words {
			if t == "" || t == "-" || safeOutputs[t] {
				continue
			}
			if p, ok := w.cwd.at(t); ok {
				w.files = append(w.files, FileUse{Path: p, Named: true})
			}
		}
	}
}
