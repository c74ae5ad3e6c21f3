package shellclass

import "strings"

// This file lists programs that run a command or code given in their own
// arguments. Such a command does not appear as a word of the line, so the
// line is opaque: a rule that forbids a command cannot see it.

// sessionRunners run whatever they are given, in any form, often after
// the call has returned.
var sessionRunners = map[string]string{
	"tmux": "runs commands in a terminal session", "screen": "runs commands in a terminal session",
	"at": "runs commands later", "batch": "runs commands later", "hyperfine": "runs the commands it benchmarks",
	"entr": "runs a command when files change", "ed": "runs commands from its input",
	"ex": "runs editor commands", "expect": "runs a script",
	"newgrp": "starts a shell that runs commands from its input",
}

// commandOptions are, per program, the options that give it a command or
// code to run. An option is matched as written, with an attached value
// (-Pless, --pager=less), or, for "+", as any word starting with it.
var commandOptions = map[string][]string{
	"man":   {"-P", "--pager", "-H", "--html"},
	"zip":   {"-TT", "--unzip-command"},
	"rsync": {"-e", "--rsh", "--rsync-path"},
	"scp":   {"-S", "-o", "-F"},
	"sftp":  {"-S", "-o", "-F", "-D"},
	"ssh":   {"-o", "-F"},
	"gdb":   {"-ex", "-x", "-iex", "-ix", "--eval-command", "--command", "--init-eval-command", "--init-command", "-batch", "--batch"},
	"vim":   vimOptions, "vi": vimOptions, "nvim": vimOptions, "view": vimOptions,
	"vimdiff": vimOptions, "gvim": vimOptions, "rvim": vimOptions,
	"emacs": {"--eval", "-eval", "-l", "--load", "-f", "--funcall", "--batch", "-batch", "--script", "-script", "-x"},
	"sort":  {"--compress-program"},
	"rg":    {"--pre", "--hostname-bin"},
	"ag":    {"--pager"},
	"less":  {"+"},
	"more":  {"+"},
	"tar":   {"--to-command", "-I", "--use-compress-program", "--rsh-command", "--checkpoint-action", "-F", "--info-script", "--new-volume-script"},
	"git":   {"--exec-path="},
	"find":  {"-exec", "-execdir", "-ok", "-okdir"},
	"make":  {"--eval", "-E", "-f", "--file", "--makefile", "-C", "--directory", "-I", "--include-dir"},
	"gmake": {"--eval", "-E", "-f", "--file", "--makefile", "-C", "--directory", "-I", "--include-dir"},
	"npm":   {"-C", "--prefix", "--script-shell", "--userconfig", "--globalconfig"},
	"go":    {"-C", "-exec", "-toolexec", "-vettool"},
}

var vimOptions = []string{"-c", "--cmd", "-S", "-s", "-e", "-E", "-es", "-Es", "-u", "+"}

// runnerOptions makes the line opaque when prog is given a command to run
// through its options (find and git check theirs in their handlers too).
func (w *walker) runnerOptions(prog string, args []arg) {
	if why, ok := sessionRunners[prog]; ok {
		w.hidef("%q %s", prog, why)
		return
	}
	opts, ok := commandOptions[prog]
	if !ok || prog == "find" || prog == "git" {
		return
	}
	for _, a := range args {
		if a.is("--") {
			return
		}
		if (prog == "make" || prog == "gmake") && a.lit && !a.isOpt() && strings.Contains(a.text, "=") {
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
