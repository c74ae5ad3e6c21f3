package shellclass

import "fmt"

// This file is the registry: everything the shell analysis knows about a
// program is one value of type program, kept in the table of its family
// (text.go for text filters, git.go for git, network.go for network
// clients, and so on). The walker asks the registry, never a list of its
// own. A program that is not registered is unknown: not read-only, and
// possibly running any of its words as a command.

// program is what the analysis knows about one program. Every field is
// optional; the zero value says nothing, which the walker treats like an
// unknown program.
type program struct {
	// reads says the program only reads, whatever its arguments: it has
	// no option that writes a file or runs another program.
	reads bool
	// check judges the arguments of a program a table cannot describe
	// (args exclude the program name); it returns why the command is not
	// read-only, or "".
	check handler
	// version lists the single arguments that only print the program's
	// version; with no check, only those are read-only.
	version []string
	// wrapper describes a program that runs a command it is given and is
	// not read-only itself (sudo, nohup, watch).
	wrapper *wrapper
	// writes says what a program that changes files or the system does.
	writes string
	// hides says how a shell builtin makes the shell run commands the
	// line does not show (alias, trap).
	hides string
	// runsHidden says how a program runs programs its words need not
	// show (sqlite3 .shell, run-parts).
	runsHidden string
	// session says how a program runs whatever it is given, often after
	// the call has returned (tmux, at).
	session string
	// interpreter says the program runs code given to it (python, node).
	interpreter bool
	// runs says the program runs a command or code it is given, beyond
	// what wrapper, interpreter, runsHidden and hides already say (env,
	// xargs, find, sh). Rules that allow such a program with any
	// arguments would allow anything.
	runs bool
	// commandOptions are the options that give the program a command or
	// code to run. An option is matched as written, with an attached
	// value (-Pless, --pager=less), or, for "+", as any word starting
	// with it.
	commandOptions []string
	// setsRecipeVars says an operand NAME=value sets a variable the
	// program's recipes may run (make SHELL=x).
	setsRecipeVars bool
	// escapes are the options through which the program writes a file or
	// runs another program, whatever else it is given.
	escapes *escapeSpec
	// subcommand names the subcommand a command runs, as a key of
	// subEscapes ("git diff"), and returns the words after it; it returns
	// prog and nil when the subcommand is only known at run time.
	subcommand func(prog string, args []arg) (string, []arg)
	// subEscapes are escapes per subcommand; a subcommand not listed
	// falls back to escapes.
	subEscapes map[string]escapeSpec
	// stored records the commands that can print what a version control
	// system keeps of files rather than the files themselves.
	stored func(w *walker, prog string, args []arg)
	// moreEscapes finds the files a program writes in ways escapes cannot
	// describe (xxd IN OUT).
	moreEscapes func(w *walker, prog string, args []arg)
	// fetch records the network requests the command makes.
	fetch func(w *walker, prog string, args []arg)
	// elsewhere says why the addresses a network client is given may not
	// be the ones it connects to, or "".
	elsewhere func(prog string, args []arg) string
	// leadingValues are the options before the program's subcommand that
	// take the next word as their value, as permission rules read a
	// command (git -C dir push); nil when they are not well known.
	leadingValues []string
	// files says which of the program's words name files and how it uses
	// them.
	files files
	// service says the program reads by asking a service over a socket
	// (docker, kubectl), which the sandbox's network rules must allow.
	service bool
	// setsArrays says the builtin may make the variables it is given
	// arrays (read -a, mapfile).
	setsArrays bool
	// pager says the program is harmless as the value of PAGER.
	pager bool
}

// files says which words of a command name files.
type files struct {
	// values are the short options that take the next word as their
	// value and, after "/", those whose value is a file read; "" means
	// "nc" (head -n 5, tail -c 10), "/" means none.
	values string
	// reads says the operands are files the program reads; patternFirst
	// says the first operand is a pattern or a program unless an option
	// gives it (-e, -f).
	reads, patternFirst bool
	// writes says the operands are files the program changes or removes.
	writes bool
	// none says the program's words never name files it opens.
	none bool
	// linksOnly says the operands other than the target are not read
	// (ln).
	linksOnly bool
	// use records the files of a program whose words need more than the
	// fields above (sed -i, cp SRC DST, dd of=); it replaces them.
	use func(w *walker, prog string, args []arg)
}

// family is the table of one family of programs, by name.
type family map[string]program

// registry holds every program the analysis knows, by name. It is built
// from the families' tables; a name in two families is a programming
// error caught at start-up. It is filled in by init because the
// programs' checks themselves look programs up.
var registry map[string]*program

// families are the tables the registry is built from, with the title
// docs/permissions.md gives each.
func families() []namedFamily {
	return []namedFamily{
		{"Shell builtins", builtinPrograms},
		{"Shells and wrappers", wrapperPrograms},
		{"Runners", runnerPrograms},
		{"Files and directories", filePrograms},
		{"Text", textPrograms},
		{"Stream editors", sedPrograms},
		{"Pattern scanners", awkPrograms},
		{"Directory search", findPrograms},
		{"Version control", gitPrograms},
		{"Network clients", networkPrograms},
		{"Archives", archivePrograms},
		{"Toolchains and interpreters", toolchainPrograms},
		{"Services", servicePrograms},
		{"The system", systemPrograms},
		{"Editors and viewers", editorPrograms},
	}
}

// namedFamily is a family's table and its title.
type namedFamily struct {
	title    string
	programs family
}

//go:generate env SHELLCLASS_DOC=update go test -run TestProgramsDoc .

func init() {
	registry = buildRegistry(families())
}

func buildRegistry(families []namedFamily) map[string]*program {
	all := map[string]*program{}
	for _, f := range families {
		for name, p := range f.programs {
			if _, dup := all[name]; dup {
				panic(fmt.Sprintf("shellclass: %q is registered twice", name))
			}
			all[name] = &p
		}
	}
	return all
}

// unregistered is what the analysis knows of an unregistered program: nothing.
var unregistered = &program{}

// lookup returns what is known about prog, never nil.
func lookup(prog string) *program {
	if p, ok := registry[prog]; ok {
		return p
	}
	return unregistered
}

// handler returns the checks of a program that may be read-only, or nil
// when it is never read-only.
func (p *program) handler() handler {
	switch {
	case p.check != nil:
		return p.check
	case p.wrapper != nil:
		return wrapperCmd
	case p.reads:
		return anyArgs
	case p.version != nil:
		return versionCmd
	}
	return nil
}

// known reports whether the analysis knows what the program does with
// its words: it is a reader, a known writer, a wrapper, an interpreter
// or a runner.
func (p *program) known() bool {
	return p.handler() != nil || p.hides != "" || p.writes != "" || p.session != "" ||
		p.commandOptions != nil || p.interpreter
}

// runsCommands reports whether the program runs commands or code it is
// given.
func (p *program) runsCommands() bool {
	return p.wrapper != nil || p.interpreter || p.runsHidden != "" || p.hides != "" || p.runs
}

// knownFileUse reports whether the analysis knows exactly which words of
// the program's command name files, and how it uses them.
func (p *program) knownFileUse() bool {
	f := p.files
	return f.use != nil || f.reads || f.writes || f.none
}

// LeadingValueOptions returns, for a program whose options before its
// subcommand are well known, the ones that take the next word as their
// value; other options of it take none. It reports false for any other
// program, whose leading options may or may not take a value.
func LeadingValueOptions(prog string) ([]string, bool) {
	p := lookup(prog)
	return p.leadingValues, p.leadingValues != nil
}

// ServiceClient reports whether prog reads by asking a service over a
// socket (docker, kubectl, systemctl): the command cannot work without
// reaching that service.
func ServiceClient(prog string) bool {
	return lookup(prog).service
}
