package shellclass

import "strings"

// This file holds the programs that run a command or code given in their
// own arguments or input (the registry's session and commandOptions
// facts). Such a command does not appear as a word of the line, so the
// line is opaque: a rule that forbids a command cannot see it.

// runnerOptions makes the line opaque when prog is given a command to run
// through its options (find and git check theirs in their handlers).
func (w *walker) runnerOptions(p *program, prog string, args []arg) {
	if p.session != "" {
		w.hidef("%q %s", prog, p.session)
		return
	}
	opts := p.commandOptions
	if opts == nil {
		return
	}
	for _, a := range args {
		if a.is("--") {
			return
		}
		if p.setsRecipeVars && a.lit && !a.isOpt() && strings.Contains(a.text, "=") {
			// A variable given on the command line overrides the
			// makefile's: SHELL=prog, CC=prog run a program.
			w.hidef("%q %s sets a variable its recipes may run", prog, a.text)
			return
		}
		if !a.lit {
			if !a.dashSafe {
				w.hidef("%q is given %s, which could be an option that runs a command", prog, a.text)
				return
			}
			continue
		}
		for _, o := range opts {
			if o == "+" {
				if strings.HasPrefix(a.text, "+") {
					w.hidef("%q %s runs a command", prog, a.text)
					return
				}
				continue
			}
			if a.text == o || strings.HasPrefix(a.text, o+"=") || len(o) == 2 && o[1] != '-' && strings.HasPrefix(a.text, o) {
				w.hidef("%q %s runs a command", prog, o)
				return
			}
		}
	}
}

// runnerPrograms run commands or code in forms their words need not show,
// often after the call has returned.
var runnerPrograms = family{
	"at":        {session: "runs commands later"},
	"batch":     {session: "runs commands later"},
	"entr":      {session: "runs a command when files change"},
	"expect":    {session: "runs a script"},
	"hyperfine": {session: "runs the commands it benchmarks"},
	"newgrp":    {session: "starts a shell that runs commands from its input"},
	"run-parts": {runsHidden: "runs every program in a directory"},
	"screen":    {session: "runs commands in a terminal session"},
	"sqlite":    {runsHidden: "runs shell commands given in SQL input (.shell, .system)"},
	"sqlite3":   {runsHidden: "runs shell commands given in SQL input (.shell, .system)"},
	"tmux":      {session: "runs commands in a terminal session"},
}
