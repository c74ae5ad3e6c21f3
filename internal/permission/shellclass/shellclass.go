package shellclass

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Result is the verdict on one command line.
type Result struct {
	// ReadOnly reports that running the line cannot change files or other
	// state outside the shell process.
	ReadOnly bool
	// Reason says, for a user and for the model, why the line is not
	// read-only, such as `redirects output to "main.go"` or
	// `"make" is not a known read-only command`. It is empty when ReadOnly.
	Reason string
	// Commands lists every simple command the line would run, including the
	// ones found inside wrappers (env, timeout, xargs, sh -c, find -exec,
	// ...), substitutions, pipelines, lists, subshells and function bodies.
	// A wrapper is listed itself and so is the command it runs. Permission
	// rules use it: an allow rule must match every entry, a deny rule any.
	Commands []Command
	// Writes are the files the line's redirections, and the options or
	// operands through which its commands write files (git diff --output,
	// sort -o, xxd IN OUT), may write, as written ("main.go", "$f"). Each
	// needs its own yes: no allow rule for the command covers it.
	// Redirections to /dev/null, /dev/stdout, /dev/stderr and to file
	// descriptors are not listed.
	Writes []string
	// Env lists what the line does to the environment of the programs it
	// runs, beyond what is known to be harmless: assignments such as
	// "PATH=./bin:$PATH" or "NODE_OPTIONS=--require=x", and removals such
	// as "unset GIT_OPTIONAL_LOCKS" or "env -i". Harmless assignments
	// (LANG, TZ, NO_COLOR, ...) and the line's own lowercase variables are
	// not listed.
	Env []string
	// Opaque is non-empty when the line may run commands that Commands
	// does not show: a program named only at run time ($cmd, $(echo rm),
	// {rm,x}), an alias or hash entry, code given to a shell or an
	// interpreter that cannot be read, a wrapper whose command cannot be
	// found, an environment change (see Env), or syntax that bash and the
	// parser could read differently. It says why. Rules that forbid
	// commands cannot trust Commands for such a line.
	Opaque string
	// Files are the files the line's commands name to read or write, as
	// far as its words show (see FileUse).
	Files []FileUse
	// Stored are the line's git commands that can print what git keeps
	// of files rather than the files themselves.
	Stored []Stored
	// Fetches are the network requests the line's commands make, one per
	// address a network client (curl, wget, git ls-remote, nc, ...) is
	// given. A fetch whose address is only known at run time has an empty
	// URL.
	Fetches []Fetch
}

// Command is one simple command.
type Command struct {
	// Args are the command's words. A word that is a plain literal is
	// given with its quotes removed; any other word (one with expansions,
	// globs or brace expansion) is given as its source text, such as
	// "$HOME/x" or "$(date)".
	Args []string
	// Literal reports that every word was a plain literal and that the
	// command gets no further arguments at run time (as the command run by
	// xargs does).
	Literal bool
	// ReadOnly reports that the command on its own only reads: its
	// program and arguments pass the checks. What the rest of the line
	// does (redirections, assignments, other commands, the commands a
	// wrapper runs, which are listed separately) is not part of it.
	ReadOnly bool
	// Words describes each word for matching rules word by word: Args in
	// order, then any words the command is given at run time (the input of
	// xargs, the path of find -exec ... +).
	Words []Word
	// Unknown reports that the program is not one the classifier knows
	// (neither a reader, a known writer, a wrapper nor an interpreter),
	// or is named by a path outside the system's binary directories. Such
	// a program may run any of its words as a command (valgrind rm x,
	// setarch x86_64 rm x, a loader run on /bin/rm).
	Unknown bool
	// Maybe reports that the command is only a guess: an Unknown program
	// was given the name of a shell or wrapper, and might run it with the
	// words after it. Rules that forbid it can only say it may match.
	Maybe bool
}

// Word is what is known about one word of a command before it runs.
type Word struct {
	// Text is the value of a literal word, or the source text of another.
	Text string
	// Lit reports that the word is exactly Text.
	Lit bool
	// Many reports that the word may become several words or none (an
	// unquoted expansion, a glob, brace expansion, run-time input).
	Many bool
	// MaybeOption reports that the word may start with "-" or "+".
	MaybeOption bool
}

// Fetch is one network request a command makes.
type Fetch struct {
	// Program is the network client, such as "curl".
	Program string
	// URL is the address with a scheme ("https://example.com/x",
	// "tcp://host:25"), or "" when it is only known at run time: a word
	// known only then, or options or variables that send the request
	// somewhere else (a redirect, --connect-to, a proxy).
	URL string
	// Written is, when options or variables make URL unknown, the
	// address as the command names it; Why says what makes it unknown.
	Written, Why string
}

// String returns the command's words joined by spaces, the form permission
// rules are matched against.
func (c Command) String() string {
	return strings.Join(c.Args, " ")
}

// maxDepth bounds how many command strings (sh -c, eval) may be nested
// inside one another.
const maxDepth = 8

// Classify parses and judges one command line, as bash runs it. It never
// runs anything and never panics: an internal failure yields a not
// read-only, opaque result.
func Classify(command string) (res Result) {
	defer func() {
		if r := recover(); r != nil {
			why := fmt.Sprintf("internal error while checking the command: %v", r)
			res = Result{Reason: why, Opaque: why}
		}
	}()
	if strings.TrimSpace(command) == "" {
		return Result{Reason: "empty command"}
	}
	w := newWalker()
	if !w.source(command, []syntax.LangVariant{syntax.LangBash}, "", true) {
		return Result{Reason: w.reason, Opaque: w.reason}
	}
	w.finish()
	res = Result{Commands: w.cmds, Reason: w.reason, Writes: w.writes, Env: w.env, Opaque: w.opaque, Fetches: w.fetches, Files: w.files, Stored: w.stored}
	res.ReadOnly = res.Reason == ""
	return res
}
