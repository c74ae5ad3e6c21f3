package shellclass

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file holds the programs that run another program: each checks its
// own options and then the command it runs.

var envSpec = optSpec{
	flags: "i0v", values: "uCS", stop: true,
	long: map[string]optKind{
		"ignore-environment": noValue, "null": noValue, "unset": needsValue,
		"chdir": needsValue, "split-string": needsValue, "block-signal": mayValue,
		"default-signal": mayValue, "ignore-signal": mayValue,
		"list-signal-handling": noValue, "debug": noValue, "help": noValue,
		"version": noValue,
	},
}

// envCmd checks env: its assignments and the command it runs. Without a
// command env prints the environment.
func envCmd(w *walker, prog string, args []arg) string {
	p, reason := envSpec.parse(prog, args)
	if reason != "" {
		return reason
	}
	if p.has("S", "split-string") {
		return fmt.Sprintf("%q -S splits a string into a command, which is not checked", prog)
	}
	rest := p.rest
	if len(rest) > 0 && rest[0].is("-") {
		rest = rest[1:] // same as -i
	}
	for len(rest) > 0 {
		a := rest[0]
		name, value, ok := strings.Cut(a.prefix, "=")
		if !ok {
			if !a.lit && !a.dashSafe {
				return fmt.Sprintf("%q is given %s, which could be an assignment or the command", prog, a.text)
			}
			break
		}
		if name == "" {
			return fmt.Sprintf("%q is given %s, which is not a valid assignment", prog, a.text)
		}
		if reason := assignReason(name, value, a.lit, false); reason != "" {
			return reason
		}
		w.setVar(name, a.lit && numericText(value))
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return ""
	}
	w.run(rest, nil)
	return ""
}

var timeoutSpec = optSpec{
	flags: "fpv", values: "ks", stop: true,
	long: map[string]optKind{
		"foreground": noValue, "kill-after": needsValue, "preserve-status": noValue,
		"signal": needsValue, "verbose": noValue, "help": noValue, "version": noValue,
	},
}

// timeoutCmd checks the command timeout runs after its duration.
func timeoutCmd(w *walker, prog string, args []arg) string {
	p, reason := timeoutSpec.parse(prog, args)
	if reason != "" {
		return reason
	}
	if len(p.rest) < 2 {
		return ""
	}
	w.run(p.rest[1:], nil)
	return ""
}

var niceSpec = optSpec{
	values: "n", stop: true,
	long: map[string]optKind{"adjustment": needsValue, "help": noValue, "version": noValue},
}

// niceCmd checks the command nice runs. Without one it prints the niceness.
func niceCmd(w *walker, prog string, args []arg) string {
	if len(args) > 0 && args[0].lit && len(args[0].text) > 1 && args[0].text[0] == '-' &&
		numericText(strings.TrimPrefix(args[0].text[1:], "-")) {
		args = args[1:] // the old "nice -10 cmd" form
	}
	p, reason := niceSpec.parse(prog, args)
	if reason != "" {
		return reason
	}
	w.run(p.rest, nil)
	return ""
}

var stdbufSpec = optSpec{
	values: "ioe", stop: true,
	long: map[string]optKind{
		"input": needsValue, "output": needsValue, "error": needsValue,
		"help": noValue, "version": noValue,
	},
}

// stdbufCmd checks the command stdbuf runs.
func stdbufCmd(w *walker, prog string, args []arg) string {
	p, reason := stdbufSpec.parse(prog, args)
	if reason != "" {
		return reason
	}
	w.run(p.rest, nil)
	return ""
}

var ioniceSpec = optSpec{
	flags: "t", values: "cnpPu", stop: true,
	long: map[string]optKind{
		"class": needsValue, "classdata": needsValue, "pid": needsValue,
		"pgid": needsValue, "uid": needsValue, "ignore": noValue,
		"help": noValue, "version": noValue,
	},
}

// ioniceCmd checks the command ionice runs; changing the priority of other
// processes is refused.
func ioniceCmd(w *walker, prog string, args []arg) string {
	p, reason := ioniceSpec.parse(prog, args)
	if reason != "" {
		return reason
	}
	if p.has("p", "P", "u", "pid", "pgid", "uid") {
		return fmt.Sprintf("%q changes the I/O priority of other processes", prog)
	}
	w.run(p.rest, nil)
	return ""
}

var xargsSpec = optSpec{
	flags: "0oprtx", values: "adEIJLnPRSs", optional: "eil", stop: true,
	long: map[string]optKind{
		"null": noValue, "arg-file": needsValue, "delimiter": needsValue,
		"eof": mayValue, "replace": mayValue, "max-lines": mayValue,
		"max-args": needsValue, "max-procs": needsValue, "interactive": noValue,
		"no-run-if-empty": noValue, "max-chars": needsValue, "verbose": noValue,
		"exit": noValue, "show-limits": noValue, "open-tty": noValue,
		"process-slot-var": needsValue, "help": noValue, "version": noValue,
	},
}

// xargsCmd checks the command xargs runs (echo by default). Its input
// becomes arguments of that command, so they are treated as unknown words.
func xargsCmd(w *walker, prog string, args []arg) string {
	p, reason := xargsSpec.parse(prog, args)
	if reason != "" {
		return reason
	}
	if p.has("process-slot-var") {
		return fmt.Sprintf("%q --process-slot-var sets a variable in the command's environment", prog)
	}
	replace := ""
	for _, o := range p.opts {
		switch o.name {
		case "I", "J", "i", "replace":
			replace = "{}"
			if o.hasVal {
				if !o.val.lit {
					return fmt.Sprintf("%q is given the replacement string %s, which is only known at run time", prog, o.val.text)
				}
				replace = o.val.text
			}
		}
	}
	inner := p.rest
	if len(inner) == 0 {
		inner = []arg{litArg("echo")}
	}
	if replace == "" {
		w.run(inner, []arg{runtimeArg("(input)")})
		return ""
	}
	cmd := make([]arg, len(inner))
	for i, a := range inner {
		cmd[i] = a
		if a.lit && strings.Contains(a.text, replace) {
			before, _, _ := strings.Cut(a.text, replace)
			cmd[i] = arg{text: a.text, prefix: before, dashSafe: before != "" && before[0] != '-', single: true}
		}
	}
	w.run(cmd, nil)
	return ""
}

// refusedWrappers say why a program that runs another one is refused.
var refusedWrappers = map[string]string{
	"nohup":    "writes the command's output to nohup.out",
	"sudo":     "runs a command as another user",
	"doas":     "runs a command as another user",
	"su":       "runs commands as another user",
	"runuser":  "runs a command as another user",
	"watch":    "runs a command repeatedly",
	"setsid":   "starts a detached process",
	"chroot":   "runs a command in another root directory",
	"unshare":  "runs a command in new namespaces",
	"nsenter":  "runs a command in other namespaces",
	"flock":    "creates lock files",
	"strace":   "can write trace files",
	"ltrace":   "can write trace files",
	"unbuffer": "runs a command in a terminal that is not checked",
	"script":   "writes a typescript file",
}

// wrapperValues are, per refused wrapper, the short options that take a
// value; they are used to find the command it runs so that it is listed.
var wrapperValues = map[string]string{
	"sudo": "CDghpRrTtUu", "doas": "Cu", "setsid": "", "nohup": "",
}

// refusedWrapperCmd refuses the wrapper but still lists the command it
// runs, so that deny rules can see it.
func refusedWrapperCmd(w *walker, prog string, args []arg) string {
	w.denyf("%q %s", prog, refusedWrappers[prog])
	values, ok := wrapperValues[prog]
	if !ok {
		return ""
	}
	i := 0
	for i < len(args) && args[i].isOpt() {
		t := args[i].text
		i++
		if t == "--" {
			break
		}
		if !strings.HasPrefix(t, "--") && strings.IndexByte(values, t[len(t)-1]) >= 0 {
			i++
		}
	}
	if i < len(args) {
		w.run(args[i:], nil)
	}
	return ""
}

var timeSpec = optSpec{
	flags: "apqv", values: "fo", stop: true,
	long: map[string]optKind{
		"append": noValue, "format": needsValue, "output": needsValue,
		"portability": noValue, "quiet": noValue, "verbose": noValue,
		"help": noValue, "version": noValue,
	},
}

// timeCmd checks the time program (the keyword is handled by the walk).
func timeCmd(w *walker, prog string, args []arg) string {
	p, reason := timeSpec.parse(prog, args)
	if reason != "" {
		return reason
	}
	if p.has("o", "output") {
		return fmt.Sprintf("%q -o writes a file", prog)
	}
	w.run(p.rest, nil)
	return ""
}

// shellLetters are the single-letter shell options that are allowed; they
// only change error handling, tracing and globbing.
const shellLetters = "ceuxvfnCaBhP"

// shellOptionNames are the names allowed after -o.
var shellOptionNames = map[string]bool{
	"errexit": true, "nounset": true, "pipefail": true, "xtrace": true,
	"verbose": true, "noglob": true, "noclobber": true, "posix": true,
	"noexec": true,
}

// shoptNames are the names allowed after -O.
var shoptNames = map[string]bool{
	"extglob": true, "nullglob": true, "globstar": true, "dotglob": true,
	"failglob": true, "nocaseglob": true, "lastpipe": true,
}

// shellCmd checks sh, bash, dash and zsh: with -c the command string is
// parsed and checked like the line itself; anything else runs a script or
// reads commands from input.
func shellCmd(w *walker, prog string, args []arg) string {
	if len(args) == 1 && args[0].is("--version") && prog != "dash" && prog != "sh" {
		return ""
	}
	withC := false
	i := 0
loop:
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.lit:
			break loop
		case a.text == "--" || a.text == "-":
			i++
			break loop
		case a.text == "--norc" || a.text == "--noprofile" || a.text == "--posix":
			continue
		case len(a.text) < 2 || (a.text[0] != '-' && a.text[0] != '+') || strings.HasPrefix(a.text, "--"):
			if strings.HasPrefix(a.text, "--") {
				return fmt.Sprintf("%q option %s is not checked", prog, a.text)
			}
			break loop
		}
		for _, c := range a.text[1:] {
			switch {
			case c == 'c':
				withC = true
			case c == 'o' || c == 'O':
				i++
				if i >= len(args) || !args[i].lit {
					return fmt.Sprintf("%q option -%c needs a plain value", prog, c)
				}
				allowed := shellOptionNames
				if c == 'O' {
					allowed = shoptNames
				}
				if !allowed[args[i].text] {
					return fmt.Sprintf("%q option -%c %s is not checked", prog, c, args[i].text)
				}
			case strings.ContainsRune(shellLetters, c):
			default:
				return fmt.Sprintf("%q option -%c is not checked", prog, c)
			}
		}
	}
	if !withC {
		if i < len(args) {
			return fmt.Sprintf("%q runs the script %s", prog, args[i].text)
		}
		return fmt.Sprintf("%q runs commands from its input", prog)
	}
	if i >= len(args) {
		return fmt.Sprintf("%q -c is missing its command string", prog)
	}
	code := args[i]
	if !code.lit {
		return fmt.Sprintf("%q runs the command string %s, which is only known at run time", prog, code.text)
	}
	lang := syntax.LangBash
	switch prog {
	case "dash":
		lang = syntax.LangPOSIX
	case "zsh":
		lang = syntax.LangZsh
	}
	w.source(code.text, lang, prog+" -c", true)
	return ""
}
