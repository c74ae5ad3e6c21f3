package shellclass

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// handler checks the arguments of one program; args exclude the program
// name. It returns why the command is not read-only, or "".
type handler func(w *walker, prog string, args []arg) string

// check judges one simple command. direct reports that the shell runs it
// itself, so that functions defined earlier in the line are visible;
// programs started by other programs (env, xargs, find -exec) never see
// shell functions.
func (w *walker) check(args []arg, direct bool) string {
	name := args[0]
	if !name.lit {
		w.hidef("the command name %s is only known at run time", name.text)
		return ""
	}
	// The program's own verdict comes first, for its message; then what
	// it would run through its options.
	base := path.Base(name.text)
	p := lookup(base)
	w.noteFetches(p, base, args[1:])
	w.deny(w.checkProgram(args, direct))
	w.runnerOptions(p, base, args[1:])
	own := p
	if g, ok := gitTool(base); ok {
		own = g // git-push is git push
	}
	w.optionEscapes(own, base, args[1:])
	w.fileUses(p, base, args[1:])
	if own.stored != nil {
		own.stored(w, base, args[1:])
	}
	if !w.knownProgram(name.text, direct) {
		w.cmds[w.cur].Unknown = true
		w.guessRuns(args[1:])
	}
	return ""
}

// knownProgram reports whether the classifier knows what the program a
// command names does: it is a reader, a known writer, a wrapper, an
// interpreter, a runner or a function of the line, named plainly or by a
// path into a system binary directory.
func (w *walker) knownProgram(name string, direct bool) bool {
	prog, reason := programName(name)
	if reason != "" {
		return false
	}
	if _, ok := GitSubcommand(prog); ok {
		return true
	}
	return lookup(prog).known() || direct && w.funcs[prog]
}

// guessRuns looks, in the words of a program the classifier does not
// know, for the name of a shell, a wrapper or another program that runs
// commands (setpriv sh -c 'rm x', valgrind env rm x): the program may run
// it with the words after it, so that command is checked and listed as a
// guess (Command.Maybe).
func (w *walker) guessRuns(args []arg) {
	for k, a := range args {
		if !a.lit {
			continue
		}
		prog, reason := programName(a.text)
		if reason != "" || !RunsCommands(prog) {
			continue
		}
		outer := w.maybe
		w.maybe = true
		w.run(args[k:], nil)
		w.maybe = outer
		return
	}
}

// checkProgram judges a command whose name is a literal word.
func (w *walker) checkProgram(args []arg, direct bool) string {
	prog, reason := programName(args[0].text)
	if reason != "" {
		return reason
	}
	p := lookup(prog)
	if h := p.handler(); h != nil {
		return h(w, prog, args[1:])
	}
	// Known programs come before functions: a function may shadow a name
	// in bash, but in POSIX mode special builtins such as trap win, and a
	// known writer is never worth the risk.
	if p.hides != "" {
		w.hidef("%q %s", prog, p.hides)
		return ""
	}
	if p.writes != "" {
		return fmt.Sprintf("%q %s", prog, p.writes)
	}
	if p.runsHidden != "" {
		w.hidef("%q %s", prog, p.runsHidden)
		return fmt.Sprintf("%q %s", prog, p.runsHidden)
	}
	if p.interpreter {
		return interpreterCmd(w, prog, args[1:])
	}
	if direct && w.funcs[prog] {
		return "" // its body was checked where it was defined
	}
	return fmt.Sprintf("%q is not a known read-only command", prog)
}

// interpreterCmd refuses an interpreter. Code given on the command line or
// on standard input cannot be seen by rules, so the line is opaque; a
// script file is like any program run by path.
func interpreterCmd(w *walker, prog string, args []arg) string {
	why := fmt.Sprintf("%q runs code", prog)
	if len(args) == 0 || !args[0].lit || args[0].isOpt() || args[0].is("-") {
		w.hidef("%s that cannot be checked", why)
	}
	return why
}

// trustedDirs are the directories a command may be named from by path.
var trustedDirs = map[string]bool{
	"/bin/": true, "/usr/bin/": true, "/usr/local/bin/": true,
	"/sbin/": true, "/usr/sbin/": true,
}

// programName returns the program a command name runs. A name with a slash
// is accepted only when it points into a system binary directory; any
// other path could be a project file that does anything.
func programName(name string) (string, string) {
	if !strings.Contains(name, "/") {
		return name, ""
	}
	dir, base := path.Split(name)
	if trustedDirs[dir] && base != "" && base != "." && base != ".." {
		return base, ""
	}
	return "", fmt.Sprintf("%q runs a program by path, which could do anything", name)
}

// anyArgs is the handler of programs that only read whatever their
// arguments are.
func anyArgs(*walker, string, []arg) string { return "" }

// versionCmd allows a toolchain program only to print its version.
func versionCmd(w *walker, prog string, args []arg) string {
	p := lookup(prog)
	flags := p.version
	if len(args) == 1 && args[0].lit && slices.Contains(flags, args[0].text) {
		return ""
	}
	if p.interpreter {
		return interpreterCmd(w, prog, args)
	}
	return fmt.Sprintf("%q is not a known read-only command (only %q is)", prog, prog+" "+flags[0])
}
