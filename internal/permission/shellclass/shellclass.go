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
}

// String returns the command's words joined by spaces, the form permission
// rules are matched against.
func (c Command) String() string {
	return strings.Join(c.Args, " ")
}

// maxDepth bounds how many command strings (sh -c, eval) may be nested
// inside one another.
const maxDepth = 8

// Classify parses and judges one command line. It never runs anything and
// never panics: an internal failure yields a not read-only result.
func Classify(command string) (res Result) {
	defer func() {
		if r := recover(); r != nil {
			res = Result{Reason: fmt.Sprintf("internal error while checking the command: %v", r)}
		}
	}()
	if strings.TrimSpace(command) == "" {
		return Result{Reason: "empty command"}
	}
	w := newWalker()
	if !w.source(command, syntax.LangBash, "", true) {
		return Result{Reason: w.reason}
	}
	w.finish()
	res = Result{Commands: w.cmds, Reason: w.reason}
	res.ReadOnly = res.Reason == ""
	return res
}
