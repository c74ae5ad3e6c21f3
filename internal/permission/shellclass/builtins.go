package shellclass

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// setsVar checks an argument that a builtin uses as a variable name and
// notes that the variable gets a value the line cannot vouch for. Bash
// evaluates an array subscript in such a name, so only plain names pass.
func (w *walker) setsVar(prog string, a arg) string {
	if !a.lit || !validName(a.text) {
		why := fmt.Sprintf("%q is given %s as a variable name, which is not a plain name", prog, a.text)
		w.hide(why)
		return why
	}
	w.varChange(a.text, prog+" "+a.text, &unknownValue, false)
	w.setVar(a.text, false)
	return ""
}

// printfCmd allows printf; -v stores the output in a variable.
func printfCmd(w *walker, prog string, args []arg) string {
	if len(args) == 0 || !args[0].lit || !strings.HasPrefix(args[0].text, "-v") {
		return ""
	}
	if name := args[0].text[2:]; name != "" {
		return w.setsVar(prog, litArg(name))
	}
	if len(args) < 2 {
		return ""
	}
	return w.setsVar(prog, args[1])
}

// testCmd allows test and [. Their -v and -R operators evaluate an array
// subscript in the operand, so an operand that could carry one must not
// follow a word that could be -v or -R.
func testCmd(w *walker, prog string, args []arg) string {
	for i := 0; i+1 < len(args); i++ {
		a, b := args[i], args[i+1]
		mayBeVarTest := !a.lit || a.text == "-v" || a.text == "-R"
		maySubscript := !b.lit || strings.ContainsRune(b.text, '[')
		if mayBeVarTest && maySubscript {
			w.hidef("%q may test the variable %s, whose subscript bash would evaluate", prog, b.text)
			return ""
		}
	}
	return ""
}

var readSpec = optSpec{flags: "ersE", values: "adinNptu", stop: true}

// readCmd allows read; the variables it sets hold input.
func readCmd(w *walker, prog string, args []arg) string {
	p, reason := readSpec.parse(prog, args)
	if reason != "" {
		// A word read cannot place could be a variable name with a
		// subscript, which bash evaluates.
		w.hide(reason)
		return ""
	}
	names := p.rest
	names = append(names, p.vals("a")...)
	if len(p.rest) == 0 && !p.has("a") {
		w.setVar("REPLY", false)
	}
	for _, n := range names {
		if reason := w.setsVar(prog, n); reason != "" {
			return reason
		}
	}
	return ""
}

var mapfileSpec = optSpec{flags: "t", values: "dnOsucC", stop: true}

// mapfileCmd allows mapfile and readarray without a callback.
func mapfileCmd(w *walker, prog string, args []arg) string {
	p, reason := mapfileSpec.parse(prog, args)
	if reason != "" {
		w.hide(reason)
		return ""
	}
	if p.has("C") {
		w.hidef("%q -C runs a command for the lines it reads", prog)
		return ""
	}
	if len(p.rest) == 0 {
		w.setVar("MAPFILE", false)
		return ""
	}
	for _, n := range p.rest {
		if reason := w.setsVar(prog, n); reason != "" {
			return reason
		}
	}
	return ""
}

// unsetCmd allows unset with plain names. A name it unsets may have been a
// function, so the line no longer counts on that function. Unsetting a
// variable that may come from the environment is an environment change.
func unsetCmd(w *walker, prog string, args []arg) string {
	funcs := false
	for _, a := range args {
		if a.lit && (a.text == "-f" || a.text == "-v" || a.text == "-n" || a.text == "--") {
			funcs = funcs || a.text == "-f"
			continue
		}
		if !a.lit || !validName(a.text) {
			// unset evaluates the subscript of an array element.
			w.hidef("%q is given %s, which is not a plain variable name", prog, a.text)
			return ""
		}
		delete(w.funcs, a.text)
		if !funcs {
			w.dropVar(a.text, "unset "+a.text)
		}
	}
	return ""
}

// setCmd allows set except -k (keyword), which lets later commands take
// variable assignments from anywhere in their arguments, and -a
// (allexport), which exports every variable set later. -o takes the names
// of shellOptionNames only.
func setCmd(_ *walker, prog string, args []arg) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.lit {
			if !a.dashSafe {
				return fmt.Sprintf("%q is given %s, which could turn out to be any option", prog, a.text)
			}
			return "" // the rest are positional parameters
		}
		t := a.text
		if t == "" || t == "--" || t == "-" || (t[0] != '-' && t[0] != '+') {
			return ""
		}
		letters := t[1:]
		if strings.ContainsRune(letters, 'k') {
			return fmt.Sprintf("%q %s lets later commands take assignments from their arguments", prog, t)
		}
		if strings.ContainsRune(letters, 'a') && t[0] == '-' {
			return fmt.Sprintf("%q %s exports every variable set afterwards", prog, t)
		}
		if strings.ContainsRune(letters, 'o') && i+1 < len(args) {
			i++
			if o := args[i]; !o.lit || !shellOptionNames[o.text] {
				return fmt.Sprintf("%q -o %s is not checked", prog, o.text)
			}
		}
	}
	return ""
}

// shoptCmd allows shopt to print options and to set the ones in
// shoptNames, or with -o the ones in shellOptionNames ("shopt -so keyword"
// is "set -k").
func shoptCmd(_ *walker, prog string, args []arg) string {
	setting, posix := false, false
	for i, a := range args {
		if !a.lit {
			return fmt.Sprintf("%q is given %s, which is only known at run time", prog, a.text)
		}
		if a.is("--") {
			args = args[i+1:]
			break
		}
		if c := shortCluster(a); c != "" {
			for _, l := range c {
				switch l {
				case 's', 'u':
					setting = true
				case 'o':
					posix = true
				case 'p', 'q':
				default:
					return fmt.Sprintf("%q option -%c is not known to be safe", prog, l)
				}
			}
			continue
		}
		args = args[i:]
		break
	}
	if !setting {
		return ""
	}
	allowed := shoptNames
	if posix {
		allowed = shellOptionNames
	}
	for _, a := range args {
		if a.isOpt() {
			continue
		}
		if !allowed[a.text] {
			return fmt.Sprintf("%q %s is not checked", prog, a.text)
		}
	}
	return ""
}

// ulimitCmd allows ulimit to print limits. Any value changes a limit,
// such as the size of core dumps a crash writes.
func ulimitCmd(_ *walker, prog string, args []arg) string {
	for _, a := range args {
		if !a.lit {
			return fmt.Sprintf("%q is given %s, which could set a limit", prog, a.text)
		}
		c := shortCluster(a)
		if c == "" {
			return fmt.Sprintf("%q %s changes a resource limit", prog, a.text)
		}
		for _, l := range c {
			if !strings.ContainsRune("HSabcdefiklmnpqrstuvxPRT", l) {
				return fmt.Sprintf("%q option -%c is not known to be safe", prog, l)
			}
		}
	}
	return ""
}

var jobsSpec = optSpec{flags: "lnprs", stop: true}

// jobsCmd allows jobs to list jobs; jobs -x runs a command with job
// numbers replaced by process IDs.
func jobsCmd(w *walker, prog string, args []arg) string {
	if len(args) > 0 && args[0].is("-x") {
		if len(args) == 1 {
			return ""
		}
		w.denyf("%q -x runs a command", prog)
		w.run(args[1:], nil)
		return ""
	}
	if _, reason := jobsSpec.parse(prog, args); reason != "" {
		w.hide(reason)
	}
	return ""
}

var waitSpec = optSpec{flags: "fn", values: "p"}

// waitCmd allows wait; -p stores a process ID in a variable, whose
// subscript bash evaluates.
func waitCmd(w *walker, prog string, args []arg) string {
	p, reason := waitSpec.parse(prog, args)
	if reason != "" {
		return reason
	}
	for _, v := range p.vals("p") {
		if reason := w.setsVar(prog, v); reason != "" {
			return reason
		}
	}
	return ""
}

// hashCmd allows hash to list or forget, not -p, which sets the program a
// name runs.
func hashCmd(w *walker, prog string, args []arg) string {
	for _, a := range args {
		if !a.lit {
			w.hidef("%q is given %s, which could turn out to be any option", prog, a.text)
			return ""
		}
		if c := shortCluster(a); strings.ContainsRune(c, 'p') {
			w.hidef("%q -p sets the program a command name runs", prog)
			return ""
		}
	}
	return ""
}

// historyCmd allows history to list entries only; its options can write
// or read the history file.
func historyCmd(_ *walker, prog string, args []arg) string {
	if len(args) == 0 || len(args) == 1 && args[0].lit && numericText(args[0].text) && args[0].text != "" {
		return ""
	}
	return fmt.Sprintf("%q with options can write or read the history file", prog)
}

// evalCmd checks the code eval runs when it is given as plain words.
func evalCmd(w *walker, prog string, args []arg) string {
	words := make([]string, len(args))
	for i, a := range args {
		if !a.lit {
			w.hidef("%q runs %s, which is only known at run time", prog, a.text)
			return ""
		}
		words[i] = a.text
	}
	code := strings.Join(words, " ")
	if strings.TrimSpace(code) == "" {
		return ""
	}
	w.source(code, []syntax.LangVariant{w.lang}, prog, false)
	return ""
}

// sourceCmd refuses source and ".": the file could contain anything.
func sourceCmd(w *walker, prog string, _ []arg) string {
	w.hidef("%q runs commands from a file", prog)
	return ""
}

// commandCmd handles command: -v and -V only look names up; otherwise it
// runs the command, bypassing functions.
func commandCmd(w *walker, prog string, args []arg) string {
	i := 0
	lookup := false
loop:
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.lit:
			if !a.dashSafe {
				w.hidef("%q is given %s, which could turn out to be any option", prog, a.text)
				return ""
			}
			break loop
		case a.text == "--":
			i++
			break loop
		case !a.isOpt():
			break loop
		}
		for _, c := range a.text[1:] {
			switch c {
			case 'p':
			case 'v', 'V':
				lookup = true
			default:
				return fmt.Sprintf("%q option -%c is not known to be safe", prog, c)
			}
		}
	}
	if lookup || i == len(args) {
		return ""
	}
	w.run(args[i:], nil)
	return ""
}

// builtinCmd checks the builtin that builtin runs.
func builtinCmd(w *walker, _ string, args []arg) string {
	if len(args) > 0 && args[0].is("--") {
		args = args[1:]
	}
	w.run(args, nil)
	return ""
}

var execSpec = optSpec{flags: "cl", values: "a", stop: true}

// execCmd checks the program exec replaces the shell with.
func execCmd(w *walker, prog string, args []arg) string {
	p, reason := execSpec.parse(prog, args)
	if reason != "" {
		w.hide(reason)
		return ""
	}
	if p.has("c") {
		w.envChange("exec -c", fmt.Sprintf("%q -c clears the environment, removing what ponder sets there", prog))
	}
	w.run(p.rest, nil)
	return ""
}

// builtinPrograms are the shell's builtins: most only read or change the
// shell's own state; some make it run commands the line does not show.
var builtinPrograms = family{
	".":         {check: sourceCmd, runs: true, files: files{reads: true}},
	":":         {reads: true, files: files{none: true}},
	"[":         {check: testCmd, files: files{none: true}},
	"alias":     {hides: "defines aliases, which can change what later commands run"},
	"bind":      {hides: "changes key bindings"},
	"break":     {reads: true},
	"builtin":   {check: builtinCmd, runs: true},
	"caller":    {reads: true},
	"cd":        {reads: true, files: files{use: cdFiles}},
	"command":   {check: commandCmd, runs: true},
	"compgen":   {hides: "can run commands"},
	"complete":  {hides: "changes shell completion"},
	"continue":  {reads: true},
	"dirs":      {reads: true},
	"echo":      {reads: true, files: files{none: true}},
	"enable":    {hides: "loads shell builtins"},
	"eval":      {check: evalCmd, runs: true},
	"exec":      {check: execCmd, runs: true},
	"exit":      {reads: true},
	"false":     {reads: true, files: files{none: true}},
	"fc":        {hides: "runs an editor and re-runs commands"},
	"hash":      {check: hashCmd},
	"help":      {reads: true},
	"history":   {check: historyCmd},
	"jobs":      {check: jobsCmd, runs: true},
	"mapfile":   {setsArrays: true, check: mapfileCmd},
	"popd":      {reads: true, files: files{use: cdFiles}},
	"printf":    {check: printfCmd, files: files{none: true}},
	"pushd":     {reads: true, files: files{use: cdFiles}},
	"read":      {setsArrays: true, check: readCmd},
	"readarray": {setsArrays: true, check: mapfileCmd},
	"return":    {reads: true},
	"set":       {check: setCmd},
	"shift":     {reads: true},
	"shopt":     {check: shoptCmd},
	"sleep":     {reads: true},
	"source":    {check: sourceCmd, runs: true, files: files{reads: true}},
	"test":      {check: testCmd, files: files{none: true}},
	"time":      {check: timeCmd, runs: true},
	"times":     {reads: true},
	"trap":      {hides: "sets traps, which run commands"},
	"true":      {reads: true, files: files{none: true}},
	"type":      {reads: true},
	"ulimit":    {check: ulimitCmd},
	"umask":     {reads: true},
	"unset":     {check: unsetCmd},
	"wait":      {check: waitCmd},
}

// cdFiles follows a change of directory, for the relative paths of later
// commands.
func cdFiles(w *walker, _ string, args []arg) {
	w.changeDir(args)
}
