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
	w.noteFetches(base, args[1:])
	w.deny(w.checkProgram(args, direct))
	w.runnerOptions(base, args[1:])
	w.optionEscapes(base, args[1:])
	w.fileUses(base, args[1:])
	w.noteStored(base, args[1:])
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
	_, hidden := hiddenRunners[prog]
	_, writer := writers[prog]
	_, session := sessionRunners[prog]
	_, options := commandOptions[prog]
	return handlerFor(prog) != nil || hidden || writer || session || options || interpreters[prog] || direct && w.funcs[prog]
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

// GitSubcommand reports whether prog is one of git's own programs
// (git-push, git-upload-pack), and which subcommand it is.
func GitSubcommand(prog string) (string, bool) {
	sub, ok := strings.CutPrefix(prog, "git-")
	if !ok || !gitCommands[sub] {
		return "", false
	}
	return sub, true
}

// checkProgram judges a command whose name is a literal word.
func (w *walker) checkProgram(args []arg, direct bool) string {
	prog, reason := programName(args[0].text)
	if reason != "" {
		return reason
	}
	if h := handlerFor(prog); h != nil {
		return h(w, prog, args[1:])
	}
	// Known programs come before functions: a function may shadow a name
	// in bash, but in POSIX mode special builtins such as trap win, and a
	// known writer is never worth the risk.
	if why, ok := hiddenRunners[prog]; ok {
		w.hidef("%q %s", prog, why)
		return ""
	}
	if why, ok := writers[prog]; ok {
		return fmt.Sprintf("%q %s", prog, why)
	}
	if why, ok := programRunners[prog]; ok {
		w.hidef("%q %s", prog, why)
		return fmt.Sprintf("%q %s", prog, why)
	}
	if interpreters[prog] {
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

// handlerFor returns the checks for prog, or nil when prog is not known to
// be read-only.
func handlerFor(prog string) handler {
	switch prog {
	// Programs that run other programs.
	case "env":
		return envCmd
	case "timeout":
		return timeoutCmd
	case "nice":
		return niceCmd
	case "stdbuf":
		return stdbufCmd
	case "ionice":
		return ioniceCmd
	case "xargs":
		return xargsCmd
	case "jobs":
		return jobsCmd
	case "wait":
		return waitCmd
	case "ulimit":
		return ulimitCmd
	case "shopt":
		return shoptCmd
	case "time":
		return timeCmd
	case "command":
		return commandCmd
	case "builtin":
		return builtinCmd
	case "exec":
		return execCmd
	case "eval":
		return evalCmd
	case "source", ".":
		return sourceCmd
	case "sh", "bash", "dash", "zsh":
		return shellCmd
	case "find":
		return findCmd
	case "fd", "fdfind":
		return fdCmd

	// Shell builtins with arguments that matter.
	case "printf":
		return printfCmd
	case "test", "[":
		return testCmd
	case "read":
		return readCmd
	case "mapfile", "readarray":
		return mapfileCmd
	case "unset":
		return unsetCmd
	case "set":
		return setCmd
	case "hash":
		return hashCmd
	case "history":
		return historyCmd

	// Programs with options that write.
	case "sed":
		return sedCmd
	case "awk", "gawk", "mawk", "nawk":
		return awkCmd
	case "sort":
		return sortCmd
	case "uniq":
		return uniqCmd
	case "date":
		return dateCmd
	case "tee":
		return teeCmd
	case "xxd":
		return xxdCmd
	case "tree":
		return treeCmd
	case "file":
		return fileCmd
	case "less", "more":
		return pagerCmd
	case "rg":
		return rgCmd
	case "ag":
		return agCmd
	case "yq":
		return yqCmd
	case "hostname":
		return hostnameCmd
	case "git":
		return gitCmd
	case "go":
		return goCmd
	case "gofmt":
		return gofmtCmd
	case "npm":
		return npmCmd
	case "pip", "pip3":
		return pipCmd
	case "curl":
		return curlCmd
	case "wget":
		return wgetCmd
	case "tar":
		return tarCmd
	case "unzip":
		return unzipCmd
	case "docker":
		return dockerCmd
	case "kubectl":
		return kubectlCmd
	case "systemctl":
		return systemctlCmd
	}
	if _, ok := wrappers[prog]; ok {
		return wrapperCmd
	}
	if readOnlyPrograms[prog] {
		return anyArgs
	}
	if _, ok := versionFlags[prog]; ok {
		return versionCmd
	}
	return nil
}

// anyArgs is the handler of programs that only read whatever their
// arguments are.
func anyArgs(*walker, string, []arg) string { return "" }

// readOnlyPrograms only read, whatever their arguments: none of them has an
// option that writes a file or runs another program.
var readOnlyPrograms = map[string]bool{
	// Files and directories.
	"ls": true, "cat": true, "head": true, "tail": true, "wc": true,
	"stat": true, "du": true, "df": true, "realpath": true, "readlink": true,
	"dirname": true, "basename": true, "pwd": true, "zipinfo": true,
	// Searching and comparing.
	"grep": true, "egrep": true, "fgrep": true, "diff": true, "cmp": true,
	"comm": true, "jq": true, "gojq": true,
	// Text filters that write only to standard output.
	"cut": true, "tr": true, "nl": true, "od": true, "hexdump": true,
	"strings": true, "column": true, "fold": true, "fmt": true,
	"expand": true, "unexpand": true, "rev": true, "tac": true,
	"paste": true, "join": true, "seq": true, "pr": true, "tsort": true,
	"base64": true, "base32": true, "factor": true, "expr": true,
	"md5sum": true, "sha1sum": true, "sha224sum": true, "sha256sum": true,
	"sha384sum": true, "sha512sum": true, "shasum": true, "cksum": true,
	"b2sum": true, "sum": true, "echo": true, "yes": true,
	// The system and the user.
	"uname": true, "whoami": true, "id": true, "groups": true,
	"printenv": true, "nproc": true, "uptime": true, "free": true,
	"ps": true, "arch": true, "tty": true, "logname": true, "locale": true,
	"getconf": true, "cal": true, "which": true, "whereis": true,
	"type": true,
	// Shell builtins that only change the shell's own state or read it.
	"true": true, "false": true, ":": true, "cd": true, "pushd": true,
	"popd": true, "dirs": true, "shift": true, "exit": true, "return": true,
	"break": true, "continue": true, "times": true, "caller": true,
	"help": true, "umask": true, "sleep": true,
}

// writers are programs known to change files or the system, with what
// they do.
var writers = map[string]string{
	"rm": "deletes files", "rmdir": "deletes directories", "unlink": "deletes files",
	"shred": "destroys files", "mkdir": "creates directories", "mkfifo": "creates files",
	"mknod": "creates files", "touch": "creates or changes files", "cp": "copies files",
	"mv": "moves files", "ln": "creates links", "chmod": "changes file permissions",
	"chown": "changes file owners", "chgrp": "changes file groups",
	"chattr": "changes file attributes", "setfacl": "changes file permissions",
	"truncate": "changes file sizes", "dd": "writes data to files or devices",
	"install": "copies files", "patch": "changes files", "rsync": "copies files",
	"scp": "copies files", "split": "writes files", "csplit": "writes files",
	"zip": "writes archives", "gzip": "compresses files in place",
	"gunzip": "decompresses files in place", "bzip2": "compresses files in place",
	"bunzip2": "decompresses files in place", "xz": "compresses files in place",
	"unxz": "decompresses files in place", "zstd": "compresses files",
	"7z": "writes archives", "kill": "stops processes", "pkill": "stops processes",
	"killall": "stops processes", "reboot": "restarts the machine",
	"shutdown": "stops the machine", "halt": "stops the machine",
	"poweroff": "stops the machine", "mount": "changes mounted file systems",
	"umount": "changes mounted file systems", "crontab": "changes scheduled jobs",
	"apt": "installs or removes packages", "apt-get": "installs or removes packages",
	"dpkg": "installs or removes packages", "yum": "installs or removes packages",
	"dnf": "installs or removes packages", "brew": "installs or removes packages",
	"pacman": "installs or removes packages", "snap": "installs or removes packages",
	"apk": "installs or removes packages",
	"vi":  "edits files", "vim": "edits files", "nvim": "edits files",
	"nano": "edits files", "emacs": "edits files", "ed": "edits files",
	"ssh": "runs commands on another machine", "npx": "runs packages",
	"service": "starts and stops services", "iptables": "changes the firewall",
}

// hiddenRunners are builtins that make the shell run commands the line
// does not show.
var hiddenRunners = map[string]string{
	"alias": "defines aliases, which can change what later commands run",
	"trap":  "sets traps, which run commands", "enable": "loads shell builtins",
	"fc": "runs an editor and re-runs commands", "compgen": "can run commands",
	"complete": "changes shell completion", "bind": "changes key bindings",
}

// programRunners are programs that run other programs in ways their
// words need not show: sqlite3 runs .shell and .system commands from its
// arguments, -cmd, -init files and standard input; run-parts runs every
// program of a directory.
var programRunners = map[string]string{
	"sqlite3":   "runs shell commands given in SQL input (.shell, .system)",
	"sqlite":    "runs shell commands given in SQL input (.shell, .system)",
	"run-parts": "runs every program in a directory",
}

// interpreters run code given to them; only version queries are read-only.
var interpreters = map[string]bool{
	"python": true, "python2": true, "python3": true, "node": true,
	"nodejs": true, "perl": true, "ruby": true, "php": true, "lua": true,
	"luajit": true, "deno": true, "bun": true, "Rscript": true,
	"osascript": true, "tclsh": true, "pwsh": true, "java": true,
	"ts-node": true, "irb": true, "ksh": true, "mksh": true, "fish": true,
	"csh": true, "tcsh": true,
}

// versionFlags lists, per toolchain program, the single arguments that only
// print its version.
var versionFlags = map[string][]string{
	"node": {"--version", "-v"}, "nodejs": {"--version", "-v"},
	"python": {"--version", "-V"}, "python2": {"--version", "-V"},
	"python3": {"--version", "-V"}, "perl": {"--version", "-v"},
	"ruby": {"--version"}, "php": {"--version", "-v"}, "lua": {"-v"},
	"deno": {"--version", "-V"}, "bun": {"--version", "-v"},
	"java": {"-version", "--version"}, "javac": {"-version", "--version"},
	"cargo": {"--version", "-V", "version"}, "rustc": {"--version", "-V", "-vV"},
	"rustup": {"--version", "-V"}, "gcc": {"--version", "-dumpversion"},
	"g++": {"--version", "-dumpversion"}, "cc": {"--version"}, "c++": {"--version"},
	"clang": {"--version"}, "clang++": {"--version"}, "make": {"--version", "-v"},
	"cmake": {"--version"}, "yarn": {"--version", "-v"}, "pnpm": {"--version", "-v"},
	"tsc": {"--version", "-v"}, "dotnet": {"--version"}, "swift": {"--version"},
	"gradle": {"--version"}, "mvn": {"--version", "-v"}, "gh": {"--version"},
	"terraform": {"--version", "-version"}, "kotlin": {"-version"},
}

// versionCmd allows a toolchain program only to print its version.
func versionCmd(w *walker, prog string, args []arg) string {
	flags := versionFlags[prog]
	if len(args) == 1 && args[0].lit && slices.Contains(flags, args[0].text) {
		return ""
	}
	if interpreters[prog] {
		return interpreterCmd(w, prog, args)
	}
	return fmt.Sprintf("%q is not a known read-only command (only %q is)", prog, prog+" "+flags[0])
}
