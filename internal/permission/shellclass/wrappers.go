package shellclass

import (
	"fmt"
	"slices"
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
// command env prints the environment. Clearing or removing variables is an
// environment change: it can undo what ponder sets, such as
// GIT_OPTIONAL_LOCKS=0.
func envCmd(w *walker, prog string, args []arg) string {
	p, reason := envSpec.parse(prog, args)
	if reason != "" {
		w.hide(reason)
		return ""
	}
	if p.has("S", "split-string") {
		// -S splits its value into words that come first; it has its
		// own escapes, so only plain words are followed.
		var words []arg
		for _, v := range p.vals("S", "split-string") {
			split, ok := SplitWords(v.text)
			if !v.lit || !ok || strings.ContainsAny(v.text, `\$'"`) {
				w.hidef("%q -S splits %s into a command, which is not checked", prog, v.text)
				return ""
			}
			for _, s := range split {
				words = append(words, litArg(s))
			}
		}
		p.rest = append(words, p.rest...)
	}
	if p.has("i", "ignore-environment") {
		w.envChange("env -i", fmt.Sprintf("%q -i clears the environment, removing what ponder sets there", prog))
	}
	for _, u := range p.vals("u", "unset") {
		if !u.lit || !validName(u.text) {
			w.envChange("env -u "+u.text, fmt.Sprintf("%q -u is given %s, which is not a plain variable name", prog, u.text))
			continue
		}
		w.dropVar(u.text, "env -u "+u.text)
	}
	rest := p.rest
	if len(rest) > 0 && rest[0].is("-") {
		w.envChange("env -", fmt.Sprintf("%q - clears the environment, removing what ponder sets there", prog))
		rest = rest[1:]
	}
	for len(rest) > 0 {
		a := rest[0]
		name, value, ok := strings.Cut(a.prefix, "=")
		if !ok {
			if !a.lit && !a.dashSafe {
				w.hidef("%q is given %s, which could be an assignment or the command", prog, a.text)
				return ""
			}
			break
		}
		if !validName(name) {
			w.envChange(a.text, fmt.Sprintf("%q is given %s, which is not a plain assignment", prog, a.text))
			rest = rest[1:]
			continue
		}
		v := unknownValue
		if a.lit {
			v = litArg(value)
		}
		w.varChange(name, a.text, &v, true)
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
		w.hide(reason)
		return ""
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
		w.hide(reason)
		return ""
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
		w.hide(reason)
		return ""
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
		w.hide(reason)
		return ""
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
		w.hide(reason)
		return ""
	}
	if p.has("process-slot-var") {
		for _, v := range p.vals("process-slot-var") {
			w.envChange("xargs --process-slot-var="+v.text, fmt.Sprintf("%q --process-slot-var sets the variable %s in the command's environment", prog, v.text))
		}
	}
	replace := ""
	for _, o := range p.opts {
		switch o.name {
		case "I", "J", "i", "replace":
			replace = "{}"
			if o.hasVal {
				if !o.val.lit {
					w.hidef("%q is given the replacement string %s, which is only known at run time", prog, o.val.text)
					return ""
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

// wrapper describes a program that runs another command, for finding that
// command: the options it takes before it, the operands it takes before it
// (such as a CPU mask or a lock file), and how it runs it.
type wrapper struct {
	why  string  // why the wrapper itself is not read-only
	spec optSpec // its options; parsing stops at the first operand
	skip int     // operands before the command
	// code names the option whose value is shell code (su -c, flock -c).
	code string
	// joined says the command's words are joined with spaces and run by
	// a shell (watch, ssh).
	joined bool
	// noCommand names options after which there is no command (chrt -p,
	// taskset -p).
	noCommand []string
}

// wrapperCmd refuses a wrapper but finds the command it runs, so that it
// is listed for rules. When the command cannot be found, the line is
// opaque.
func wrapperCmd(w *walker, prog string, args []arg) string {
	wr := lookup(prog).wrapper
	why := fmt.Sprintf("%q %s", prog, wr.why)
	w.deny(why)
	if wr.code != "" && wr.code != "-" {
		// The code option may come anywhere (GNU getopt permutes).
		if code, found := codeOption(args, wr.code); found {
			w.shellCode(code, []syntax.LangVariant{syntax.LangPOSIX, syntax.LangBash}, prog+" -"+wr.code)
			return why
		}
		if prog == "su" || prog == "script" || prog == "runuser" && !hasUserOption(args) {
			w.hidef("%s; without -%s it starts a shell", why, wr.code)
			return why
		}
	}
	if prog == "sg" && len(args) > 0 && args[0].is("-") {
		args = args[1:] // a login shell's environment
	}
	spec := wr.spec
	spec.stop = true
	p, reason := spec.parse(prog, args)
	if reason != "" {
		w.hide(why + "; " + reason)
		return why
	}
	if p.has(wr.noCommand...) {
		return why
	}
	rest := p.rest
	skip := wr.skip
	for skip > 0 && len(rest) > 0 {
		if unsure(prog, rest[0]) != "" || !rest[0].single {
			w.hidef("%s; its operand %s could be anything", why, rest[0].text)
			return why
		}
		rest, skip = rest[1:], skip-1
	}
	if len(rest) == 0 {
		if prog == "sudo" && p.has("s", "i", "shell", "login") || prog == "doas" && p.has("s") || prog == "sg" {
			w.hidef("%s; it starts a shell", why)
		}
		return why
	}
	if wr.code == "-" {
		// sg group [-c] "command": the command is code for a shell.
		if rest[0].is("-c") {
			rest = rest[1:]
		}
		if len(rest) == 0 {
			w.hidef("%s; without a command it starts a shell", why)
			return why
		}
		w.shellCode(rest[0], []syntax.LangVariant{syntax.LangPOSIX, syntax.LangBash}, prog)
		return why
	}
	if prog == "parallel" {
		if i := slices.IndexFunc(rest, func(a arg) bool { return a.is(":::") || a.is("::::") }); i >= 0 {
			rest = rest[:i]
		}
		if len(rest) == 0 {
			w.hidef("%s; the commands come from its input", why)
			return why
		}
	}
	if wr.joined || prog == "sudo" && p.has("s", "i", "shell", "login") {
		if prog == "watch" && p.has("x", "exec") {
			w.run(rest, nil)
			return why
		}
		words := make([]string, len(rest))
		for i, a := range rest {
			if !a.lit {
				w.hidef("%s; its command %s is only known at run time", why, a.text)
				return why
			}
			words[i] = a.text
		}
		w.shellCode(litArg(strings.Join(words, " ")), []syntax.LangVariant{syntax.LangPOSIX, syntax.LangBash}, prog)
		return why
	}
	w.run(rest, nil)
	return why
}

// hasUserOption reports whether runuser is given -u, with which it runs a
// command directly.
func hasUserOption(args []arg) bool {
	for _, a := range args {
		if a.is("--") {
			return false
		}
		if strings.ContainsRune(shortCluster(a), 'u') || a.lit && strings.HasPrefix(a.text, "--user") {
			return true
		}
	}
	return false
}

// codeOption finds the value of the option -letter (or --command,
// --session-command) anywhere in args.
func codeOption(args []arg, letter string) (arg, bool) {
	for i, a := range args {
		if !a.lit {
			continue
		}
		switch {
		case a.text == "-"+letter || a.text == "--command" || a.text == "--session-command":
			if i+1 < len(args) {
				return args[i+1], true
			}
			return litArg(""), true
		case strings.HasPrefix(a.text, "--command="), strings.HasPrefix(a.text, "--session-command="):
			_, v, _ := strings.Cut(a.text, "=")
			return litArg(v), true
		case len(a.text) > 2 && a.text[0] == '-' && a.text[1] != '-' && strings.Contains(a.text[1:], letter):
			// A cluster such as -lc: the value is the rest of the word
			// or the next word.
			k := strings.Index(a.text, letter)
			if k+1 < len(a.text) {
				return litArg(a.text[k+1:]), true
			}
			if i+1 < len(args) {
				return args[i+1], true
			}
			return litArg(""), true
		}
	}
	return arg{}, false
}

// shellCode walks code that a program gives to a shell. The code must read
// the same in every dialect of langs; code only known at run time makes
// the line opaque.
func (w *walker) shellCode(code arg, langs []syntax.LangVariant, what string) {
	if !code.lit {
		w.hidef("%s runs the command string %s, which is only known at run time", what, code.text)
		return
	}
	if strings.TrimSpace(code.text) == "" {
		return
	}
	w.source(code.text, langs, what, true)
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
		w.hide(reason)
		return ""
	}
	if p.has("o", "output") {
		return fmt.Sprintf("%q -o writes a file", prog)
	}
	w.run(p.rest, nil)
	return ""
}

// shellLetters are the single-letter shell options that are allowed; they
// only change error handling, tracing and globbing.
const shellLetters = "ceuxvfnCBhP"

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
// reads commands from input, which cannot be seen.
//
// The code is read in every dialect that could run it, and they must
// agree: sh is dash on some systems and bash on others, so its code must
// read the same as POSIX and as bash; zsh code must read the same as bash,
// whose rules the walk applies.
func shellCmd(w *walker, prog string, args []arg) string {
	if len(args) == 1 && args[0].is("--version") && prog != "dash" && prog != "sh" {
		return ""
	}
	// An option that is not checked makes the line opaque, but the code
	// is still walked so that rules see its commands.
	problem := ""
	note := func(format string, args ...any) {
		if problem == "" {
			problem = fmt.Sprintf(format, args...)
		}
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
				note("%q option %s is not checked", prog, a.text)
				continue
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
					note("%q option -%c needs a plain value", prog, c)
					continue
				}
				allowed := shellOptionNames
				if c == 'O' {
					allowed = shoptNames
				}
				if !allowed[args[i].text] {
					note("%q option -%c %s is not checked", prog, c, args[i].text)
				}
			case strings.ContainsRune(shellLetters, c):
			default:
				note("%q option -%c is not checked", prog, c)
			}
		}
	}
	if !withC {
		if i < len(args) {
			w.hidef("%q runs the script %s, whose commands cannot be checked", prog, args[i].text)
			return ""
		}
		w.hidef("%q runs commands from its input, which cannot be checked", prog)
		return ""
	}
	if i >= len(args) {
		return fmt.Sprintf("%q -c is missing its command string", prog)
	}
	langs := []syntax.LangVariant{syntax.LangBash}
	switch prog {
	case "sh", "dash":
		langs = []syntax.LangVariant{syntax.LangPOSIX, syntax.LangBash}
	case "zsh":
		langs = []syntax.LangVariant{syntax.LangZsh, syntax.LangBash}
	}
	w.shellCode(args[i], langs, prog+" -c")
	w.hide(problem)
	return ""
}

// wrapperPrograms run a command they are given: the shells, and the
// programs that change how a command runs (env, timeout, sudo, nohup). The
// command is found and checked, or the line is opaque.
var wrapperPrograms = family{
	"bash":             {check: shellCmd, runs: true},
	"busybox":          {wrapper: &wrapper{why: "runs its own versions of programs"}},
	"caffeinate":       {wrapper: &wrapper{why: "runs a command", spec: optSpec{flags: "dimsu", values: "tw"}}},
	"catchsegv":        {wrapper: &wrapper{why: "runs a command"}},
	"chronic":          {wrapper: &wrapper{why: "runs a command", spec: optSpec{flags: "ev"}}},
	"chroot":           {wrapper: &wrapper{why: "runs a command in another root directory", spec: optSpec{long: map[string]optKind{"groups": needsValue, "skip-chdir": noValue, "userspec": needsValue}}, skip: 1}},
	"chrt":             {wrapper: &wrapper{why: "changes scheduling", spec: optSpec{flags: "abdefimoprRv", values: "TPD", long: map[string]optKind{"all-tasks": noValue, "batch": noValue, "deadline": noValue, "fifo": noValue, "idle": noValue, "max": noValue, "other": noValue, "pid": noValue, "reset-on-fork": noValue, "rr": noValue, "sched-deadline": needsValue, "sched-period": needsValue, "sched-runtime": needsValue, "verbose": noValue}}, skip: 1, noCommand: []string{"p", "pid", "m", "max"}}},
	"dash":             {check: shellCmd, runs: true},
	"dbus-run-session": {wrapper: &wrapper{why: "starts a message bus", spec: optSpec{long: map[string]optKind{"config-file": needsValue, "dbus-daemon": needsValue}}}},
	"doas":             {wrapper: &wrapper{why: "runs a command as another user", spec: optSpec{flags: "Lns", values: "Cu"}}},
	"eatmydata":        {wrapper: &wrapper{why: "runs a command with writes made unsafe"}},
	"env":              {check: envCmd, runs: true},
	"fakeroot":         {wrapper: &wrapper{why: "runs a command as a fake root", spec: optSpec{values: "lsi", long: map[string]optKind{"faked": needsValue, "lib": needsValue, "unknown-is-real": noValue}}}},
	"faketime":         {wrapper: &wrapper{why: "runs a command at a fake time", spec: optSpec{flags: "fm", values: "p"}, skip: 1}},
	"flock":            {wrapper: &wrapper{why: "creates lock files", spec: optSpec{flags: "sxnouFeh", values: "wEc", long: map[string]optKind{"close": noValue, "command": needsValue, "conflict-exit-code": needsValue, "exclusive": noValue, "nb": noValue, "no-fork": noValue, "nonblock": noValue, "shared": noValue, "timeout": needsValue, "unlock": noValue, "verbose": noValue, "wait": needsValue}}, skip: 1, code: "c"}},
	"ionice":           {check: ioniceCmd, runs: true},
	"ltrace":           {wrapper: &wrapper{why: "can write trace files", spec: optSpec{flags: "bcCfhiLrStTV", values: "aAeDEFlnopsuwx", long: map[string]optKind{"demangle": noValue, "indent": needsValue, "library": needsValue, "output": needsValue}}}},
	"nice":             {check: niceCmd, runs: true},
	"nohup":            {wrapper: &wrapper{why: "writes the command's output to nohup.out"}},
	"nsenter":          {wrapper: &wrapper{why: "runs a command in other namespaces", spec: optSpec{flags: "aFmuinpUCTrwZ", values: "tSG", optional: "mutinpUCTrw", long: map[string]optKind{"all": noValue, "cgroup": mayValue, "ipc": mayValue, "mount": mayValue, "net": mayValue, "no-fork": noValue, "pid": mayValue, "preserve-credentials": noValue, "root": mayValue, "setgid": needsValue, "setuid": needsValue, "target": needsValue, "time": mayValue, "user": mayValue, "uts": mayValue, "wd": mayValue}}}},
	"numactl":          {wrapper: &wrapper{why: "changes memory placement", spec: optSpec{flags: "alsH", values: "iNmCPpwc", long: map[string]optKind{"cpunodebind": needsValue, "hardware": noValue, "interleave": needsValue, "localalloc": noValue, "membind": needsValue, "physcpubind": needsValue, "preferred": needsValue, "show": noValue}}}},
	"parallel":         {wrapper: &wrapper{why: "runs commands in parallel", joined: true}},
	"pkexec":           {wrapper: &wrapper{why: "runs a command as another user", spec: optSpec{long: map[string]optKind{"disable-internal-agent": noValue, "keep-cwd": noValue, "user": needsValue}}}},
	"prlimit":          {wrapper: &wrapper{why: "changes resource limits", spec: optSpec{flags: "ovr", values: "p", optional: "ABCDEFILMNQRSTYbcdefilmnqrstuvy", long: map[string]optKind{"core": mayValue, "nofile": mayValue, "noheadings": noValue, "output": needsValue, "pid": needsValue, "raw": noValue, "verbose": noValue}}, noCommand: []string{"p", "pid"}}},
	"proxychains":      {wrapper: &wrapper{why: "runs a command through a proxy", spec: optSpec{flags: "q", values: "f"}}},
	"proxychains4":     {wrapper: &wrapper{why: "runs a command through a proxy", spec: optSpec{flags: "q", values: "f"}}},
	"runuser":          {wrapper: &wrapper{why: "runs a command as another user", spec: optSpec{flags: "flmpP", values: "gGsuw", long: map[string]optKind{"command": needsValue, "group": needsValue, "login": noValue, "preserve-environment": noValue, "pty": noValue, "session-command": needsValue, "shell": needsValue, "supp-group": needsValue, "user": needsValue}}, code: "c"}},
	"script":           {wrapper: &wrapper{why: "writes a typescript file", spec: optSpec{flags: "aefqT", values: "cEIOBmt", optional: "t", long: map[string]optKind{"append": noValue, "command": needsValue, "echo": needsValue, "flush": noValue, "force": noValue, "log-in": needsValue, "log-io": needsValue, "log-out": needsValue, "log-timing": needsValue, "logging-format": needsValue, "output-limit": needsValue, "quiet": noValue, "return": noValue, "timing": mayValue}}, skip: -1, code: "c"}},
	"setsid":           {wrapper: &wrapper{why: "starts a detached process", spec: optSpec{flags: "cfw", long: map[string]optKind{"ctty": noValue, "fork": noValue, "wait": noValue}}}},
	"sg":               {wrapper: &wrapper{why: "runs a command as another group", skip: 1, code: "-"}},
	"sh":               {check: shellCmd, runs: true},
	"stdbuf":           {check: stdbufCmd, runs: true},
	"strace":           {wrapper: &wrapper{why: "can write trace files", spec: optSpec{flags: "cCdDfFhiqrtTvVwxyYzZk", values: "abeEIoOpPsSuUX", long: map[string]optKind{"attach": needsValue, "decode-fds": mayValue, "env": needsValue, "follow-forks": noValue, "output": needsValue, "quiet": mayValue, "signal": needsValue, "status": needsValue, "string-limit": needsValue, "summary-only": noValue, "trace": needsValue, "user": needsValue}}}},
	"su":               {wrapper: &wrapper{why: "runs commands as another user", spec: optSpec{flags: "flmpP", values: "gGsw", long: map[string]optKind{"command": needsValue, "group": needsValue, "login": noValue, "preserve-environment": noValue, "pty": noValue, "session-command": needsValue, "shell": needsValue, "supp-group": needsValue, "whitelist-environment": needsValue}}, skip: 1, code: "c"}},
	"sudo":             {wrapper: &wrapper{why: "runs a command as another user", spec: optSpec{flags: "AbEeHiKkLlnPSsVv", values: "CDghpRrTtUu", long: map[string]optKind{"askpass": noValue, "background": noValue, "chdir": needsValue, "close-from": needsValue, "command-timeout": needsValue, "edit": noValue, "group": needsValue, "help": noValue, "host": needsValue, "list": noValue, "login": noValue, "non-interactive": noValue, "other-user": needsValue, "preserve-env": mayValue, "prompt": needsValue, "remove-timestamp": noValue, "reset-timestamp": noValue, "role": needsValue, "set-home": noValue, "shell": noValue, "stdin": noValue, "type": needsValue, "user": needsValue, "validate": noValue, "version": noValue}}}},
	"systemd-run":      {wrapper: &wrapper{why: "starts a service", spec: optSpec{flags: "qtGSr", values: "Mpuh", long: map[string]optKind{"collect": noValue, "description": needsValue, "gid": needsValue, "nice": needsValue, "pipe": noValue, "property": needsValue, "pty": noValue, "quiet": noValue, "same-dir": noValue, "scope": noValue, "setenv": needsValue, "system": noValue, "uid": needsValue, "unit": needsValue, "user": noValue, "wait": noValue, "working-directory": needsValue}}}},
	"taskset":          {wrapper: &wrapper{why: "changes CPU affinity", spec: optSpec{flags: "acp", long: map[string]optKind{"all-tasks": noValue, "cpu-list": noValue, "pid": noValue}}, skip: 1, noCommand: []string{"p", "pid"}}},
	"timeout":          {check: timeoutCmd, runs: true},
	"torsocks":         {wrapper: &wrapper{why: "runs a command through a proxy", spec: optSpec{flags: "diq", values: "uaPp", long: map[string]optKind{"address": needsValue, "debug": noValue, "isolate": noValue, "pass": needsValue, "port": needsValue, "quiet": noValue, "user": needsValue}}}},
	"toybox":           {wrapper: &wrapper{why: "runs its own versions of programs"}},
	"unbuffer":         {wrapper: &wrapper{why: "runs a command in a terminal that is not checked", spec: optSpec{flags: "p"}}},
	"unshare":          {wrapper: &wrapper{why: "runs a command in new namespaces", spec: optSpec{flags: "ciUmnpruCfT", values: "SG", optional: "ciUmnpruCT", long: map[string]optKind{"cgroup": mayValue, "fork": noValue, "ipc": mayValue, "kill-child": mayValue, "map-current-user": noValue, "map-root-user": noValue, "mount": mayValue, "mount-proc": mayValue, "net": mayValue, "pid": mayValue, "propagation": needsValue, "root": needsValue, "setgid": needsValue, "setgroups": needsValue, "setuid": needsValue, "time": mayValue, "user": mayValue, "uts": mayValue, "wd": needsValue}}}},
	"watch":            {wrapper: &wrapper{why: "runs a command repeatedly", spec: optSpec{flags: "bcCeEgprtwx", values: "dnq", optional: "d", long: map[string]optKind{"beep": noValue, "chgexit": noValue, "color": noValue, "differences": mayValue, "equexit": needsValue, "errexit": noValue, "exec": noValue, "interval": needsValue, "no-color": noValue, "no-rerun": noValue, "no-title": noValue, "no-wrap": noValue, "precise": noValue, "shotsdir": needsValue}}, joined: true}},
	"xargs":            {check: xargsCmd, runs: true},
	"xvfb-run":         {wrapper: &wrapper{why: "starts a display server", spec: optSpec{flags: "as", values: "efnpw", long: map[string]optKind{"auto-servernum": noValue, "error-file": needsValue, "server-args": needsValue, "server-num": needsValue}}}},
	"zsh":              {check: shellCmd, runs: true},
}
