package shellclass

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file holds what permission rules share with the classifier: how a
// program is named, which programs run other commands, and how a rule's
// command text splits into words.

// Program returns the program a command word names, as rules compare it:
// a path into a system binary directory (/usr/bin/curl) names the program
// by its base name (curl); any other word is returned as it is.
func Program(word string) string {
	if name, reason := programName(word); reason == "" {
		return name
	}
	return word
}

// BaseName returns the last element of a program path ("./bin/rm" gives
// "rm"). Rules that forbid a program use it, so that the program cannot
// escape them under another path.
func BaseName(word string) string {
	if !strings.Contains(word, "/") {
		return word
	}
	return path.Base(word)
}

// RunsCommands reports whether prog runs commands or code it is given
// (env, timeout, xargs, find, sh, eval, python, ...). A rule that allows
// such a program with any arguments would allow anything.
func RunsCommands(prog string) bool {
	return lookup(prog).runsCommands()
}

// SplitWords splits a rule's command text into words as the shell would,
// quotes removed. It reports false when the text is not a plain list of
// words (it has expansions, operators or is empty).
func SplitWords(s string) ([]string, bool) {
	f, err := syntax.NewParser().Parse(strings.NewReader(s), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(st.Redirs) > 0 || st.Background || st.Negated || len(call.Args) == 0 {
		return nil, false
	}
	w := newWalker()
	w.src = s
	words := make([]string, len(call.Args))
	for i, word := range call.Args {
		a := w.describe(word)
		if !a.lit {
			return nil, false
		}
		words[i] = a.text
	}
	return words, true
}
