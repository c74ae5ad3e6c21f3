package shellclass

import (
	"fmt"
	"slices"
	"strings"
)

// This file holds language toolchains: each allows its read-only
// subcommands only.

// goFlagName returns the name of a Go-style flag word ("-x", "--x=v").
func goFlagName(t string) string {
	name := strings.TrimPrefix(strings.TrimPrefix(t, "-"), "-")
	name, _, _ = strings.Cut(name, "=")
	return name
}

// goAllowed lists, per read-only go subcommand, the flags it may be given
// and whether each takes a value. Every other flag is refused: the build
// flags alone can run programs (-toolexec, -exec, -vettool), write files
// (-o, -cpuprofile, -memprofile, -trace, -debug-*, -gcflags=-o=...) or
// reach the network (-u, -versions, -retracted).
var goAllowed = map[string]map[string]bool{
	"list": {"f": true, "json": false, "m": false, "deps": false, "e": false,
		"find": false, "test": false, "tags": true, "mod": true},
	"doc": {"all": false, "c": false, "cmd": false, "short": false, "src": false,
		"u": false},
	"version":    {"m": false, "v": false, "json": false},
	"env":        {"json": false, "changed": false},
	"help":       {},
	"mod graph":  {"go": true},
	"mod why":    {"m": false, "vendor": false},
	"mod verify": {},
}

// goFlags checks the flags of a read-only go subcommand against goAllowed.
// Package and module arguments with "@" name versions that would be
// fetched.
func goFlags(sub string, args []arg) string {
	allowed := goAllowed[sub]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.is("--") {
			for _, p := range args[i+1:] {
				if !p.lit || strings.Contains(p.text, "@") {
					return fmt.Sprintf("%q %s may name a version, which would be downloaded", "go "+sub, p.text)
				}
			}
			break
		}
		if reason := unsure("go "+sub, a); reason != "" {
			return reason
		}
		if !a.isOpt() {
			if strings.Contains(a.text, "@") {
				return fmt.Sprintf("%q %s names a version, which would be downloaded", "go "+sub, a.text)
			}
			continue
		}
		name := goFlagName(a.text)
		takesValue, ok := allowed[name]
		if !ok {
			return fmt.Sprintf("%q option -%s is not known to be read-only", "go "+sub, name)
		}
		_, val, hasVal := strings.Cut(a.text, "=")
		if takesValue && !hasVal {
			if i+1 >= len(args) {
				return fmt.Sprintf("%q option -%s needs a value", "go "+sub, name)
			}
			i++
			val = args[i].text
			if !args[i].lit {
				return fmt.Sprintf("%q option -%s is given %s, which is only known at run time", "go "+sub, name, val)
			}
		}
		if name == "mod" && val != "readonly" && val != "vendor" {
			return fmt.Sprintf("%q -mod=%s may change go.mod", "go "+sub, val)
		}
	}
	return ""
}

// goCmd allows go version, env, list, doc, help and the reading mod
// subcommands. go vet is not read-only: it builds the packages into the
// build cache.
func goCmd(_ *walker, prog string, args []arg) string {
	if len(args) >= 2 && args[0].is("-C") {
		args = args[2:]
	}
	if len(args) == 0 {
		return ""
	}
	sub := args[0]
	if !sub.lit {
		return fmt.Sprintf("%q is given the subcommand %s, which is only known at run time", prog, sub.text)
	}
	rest := args[1:]
	switch sub.text {
	case "version", "help", "doc", "list":
		return goFlags(sub.text, rest)
	case "vet":
		if reason := goVetFlags(rest); reason != "" {
			return reason
		}
		return `"go vet" builds the packages, which writes the build cache`
	case "env":
		for _, a := range rest {
			if reason := unsure("go env", a); reason != "" {
				return reason
			}
			if name := goFlagName(a.text); a.isOpt() && (name == "w" || name == "u") {
				return fmt.Sprintf("%q changes the Go configuration", "go env -"+name)
			}
		}
		return goFlags("env", rest)
	case "mod":
		if len(rest) > 0 && rest[0].lit && slices.Contains([]string{"graph", "why", "verify"}, rest[0].text) {
			return goFlags("mod "+rest[0].text, rest[1:])
		}
		if len(rest) > 0 {
			return fmt.Sprintf("%q is not a read-only go command", "go mod "+rest[0].text)
		}
		return ""
	}
	return fmt.Sprintf("%q is not a read-only go command", "go "+sub.text)
}

// goVetFlags names the vet flags that run other programs or rewrite files,
// for a clearer message.
func goVetFlags(args []arg) string {
	for _, a := range args {
		if !a.isOpt() {
			continue
		}
		switch name := goFlagName(a.text); name {
		case "vettool", "toolexec", "exec":
			return fmt.Sprintf("%q -%s runs another program", "go vet", name)
		case "fix":
			return fmt.Sprintf("%q -fix rewrites source files", "go vet")
		}
	}
	return ""
}

// gofmtCmd allows gofmt to list and show changes (-l, -d), not to write
// them (-w) or profiles (-cpuprofile).
func gofmtCmd(_ *walker, prog string, args []arg) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if reason := unsure(prog, a); reason != "" {
			return reason
		}
		if !a.isOpt() {
			continue
		}
		switch name := goFlagName(a.text); name {
		case "l", "d", "s", "e", "h", "help":
		case "r":
			if !strings.Contains(a.text, "=") {
				i++
			}
		case "w":
			return fmt.Sprintf("%q -w rewrites files", prog)
		default:
			return fmt.Sprintf("%q option -%s is not known to be safe", prog, name)
		}
	}
	return ""
}

// npmCmd allows npm only to print its version: every other npm command
// writes a debug log and an update check under ~/.npm, and many reach the
// registry.
func npmCmd(_ *walker, prog string, args []arg) string {
	if len(args) == 0 {
		return ""
	}
	if len(args) == 1 && (args[0].is("--version") || args[0].is("-v")) {
		return ""
	}
	sub := args[0]
	switch {
	case !sub.lit:
		return fmt.Sprintf("%q is given the subcommand %s, which is only known at run time", prog, sub.text)
	case sub.isOpt():
		return fmt.Sprintf("%q options before the subcommand are not checked", prog)
	}
	switch sub.text {
	case "ls", "list", "ll", "la", "view", "info", "show", "v", "help", "explain", "why":
		return fmt.Sprintf("%q writes log files under ~/.npm", "npm "+sub.text)
	}
	return fmt.Sprintf("%q is not a read-only npm command", "npm "+sub.text)
}

// pipOptions are the options allowed with pip's reading subcommands.
// Others can write log files (--log) or reports.
var pipOptions = map[string]bool{
	"--format": true, "--user": true, "--local": true, "-l": true,
	"--not-required": true, "--files": true, "-f": true, "--verbose": true,
	"-v": true, "--all": true, "--exclude-editable": true,
	"--include-editable": true, "--editable": true, "-e": true,
	"--no-color":                  true,
	"--disable-pip-version-check": true, "-q": true, "--quiet": true,
}

// pipCmd allows pip to list and show installed packages.
func pipCmd(_ *walker, prog string, args []arg) string {
	if len(args) == 0 {
		return ""
	}
	sub := args[0]
	if len(args) == 1 && (sub.is("--version") || sub.is("-V")) {
		return ""
	}
	if !sub.lit || !slices.Contains([]string{"list", "show", "freeze", "help"}, sub.text) {
		return fmt.Sprintf("%q installs or removes packages or is not checked", prog+" "+sub.text)
	}
	for _, a := range args[1:] {
		if reason := unsure(prog+" "+sub.text, a); reason != "" {
			return reason
		}
		if name, _, _ := strings.Cut(a.text, "="); a.isOpt() && !pipOptions[name] {
			return fmt.Sprintf("%q option %s is not known to be safe", prog+" "+sub.text, name)
		}
	}
	return ""
}

// goEscapes are, per subcommand, the options through which go writes a
// file or runs a program, whatever else it is given.
var goEscapes = map[string]escapeSpec{
	"go test":    {writeLong: goTestWrites, runLong: append([]string{"exec", "vettool"}, goBuildRuns...), goStyle: true},
	"go vet":     {writeLong: goBuildWrites, writeFlags: []string{"fix"}, runLong: append([]string{"vettool"}, goBuildRuns...), goStyle: true},
	"go build":   {writeLong: goBuildWrites, runLong: goBuildRuns, goStyle: true},
	"go install": {writeLong: goBuildWrites, runLong: goBuildRuns, goStyle: true},
	"go run":     {writeLong: goBuildWrites, runLong: append([]string{"exec"}, goBuildRuns...), goStyle: true},
	"go list":    {writeLong: goBuildWrites, runLong: goBuildRuns, goStyle: true},
}

// goKey names the subcommand of go as "go SUB" and returns the arguments
// after it.
func goKey(prog string, args []arg) (string, []arg) {
	if len(args) >= 2 && args[0].is("-C") {
		args = args[2:]
	}
	if len(args) > 0 && args[0].lit {
		return prog + " " + args[0].text, args[1:]
	}
	return prog, args
}

var (
	pipEscapes = escapeSpec{writeLong: []string{"log", "log-file", "report"}, runLong: []string{"python"}, abbrev: true}
	npmEscapes = escapeSpec{
		writeLong: []string{"cache", "logs-dir"},
		runLong: []string{"script-shell", "userconfig", "globalconfig", "prefix", "node-options", "init-module",
			"editor", "shell", "browser", "viewer", "git", "onload-script", "call"},
		runShort: "c", abbrev: true,
	}
	// goBuildWrites and goBuildRuns are the build flags every go command
	// that builds shares: debug files, and programs run as or by the
	// tools (the compiler and linker flags can name an external linker).
	goBuildWrites = []string{"debug-actiongraph", "debug-trace", "debug-runtime-trace", "debug-deps-graph", "o"}
	goBuildRuns   = []string{"toolexec", "ldflags", "gcflags", "asmflags", "gccgoflags", "overlay"}
)

// goTestWrites are go test's: the build flags, and the files the test
// binary writes, also in their -test. form.
var goTestWrites = func() []string {
	test := []string{"coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace",
		"outputdir", "fuzzcache", "testlogfile", "gocoverdir"}
	out := append([]string{}, goBuildWrites...)
	for _, t := range test {
		out = append(out, t, "test."+t)
	}
	return out
}()

// toolchainPrograms are language toolchains and interpreters: an
// interpreter runs code, a toolchain allows its read-only subcommands or
// its version query only.
var toolchainPrograms = family{
	"Rscript":   {interpreter: true},
	"bun":       {version: []string{"--version", "-v"}, interpreter: true},
	"c++":       {version: []string{"--version"}},
	"cargo":     {leadingValues: []string{"-C", "--manifest-path", "--config", "-Z", "--color", "--target-dir"}, version: []string{"--version", "-V", "version"}},
	"cc":        {version: []string{"--version"}},
	"clang":     {version: []string{"--version"}},
	"clang++":   {version: []string{"--version"}},
	"cmake":     {version: []string{"--version"}},
	"csh":       {interpreter: true},
	"deno":      {version: []string{"--version", "-V"}, interpreter: true},
	"dotnet":    {version: []string{"--version"}},
	"fish":      {interpreter: true},
	"g++":       {version: []string{"--version", "-dumpversion"}},
	"gcc":       {version: []string{"--version", "-dumpversion"}},
	"gdb":       {commandOptions: []string{"-ex", "-x", "-iex", "-ix", "--eval-command", "--command", "--init-eval-command", "--init-command", "-batch", "--batch"}},
	"gh":        {version: []string{"--version"}},
	"gmake":     {commandOptions: []string{"--eval", "-E", "-f", "--file", "--makefile", "-C", "--directory", "-I", "--include-dir"}, setsRecipeVars: true},
	"go":        {leadingValues: []string{"-C"}, check: goCmd, commandOptions: []string{"-C", "-exec", "-toolexec", "-vettool"}, subcommand: goKey, subEscapes: goEscapes},
	"gofmt":     {check: gofmtCmd, escapes: &escapeSpec{writeLong: []string{"cpuprofile"}, goStyle: true}},
	"gradle":    {version: []string{"--version"}},
	"irb":       {interpreter: true},
	"java":      {version: []string{"-version", "--version"}, interpreter: true},
	"javac":     {version: []string{"-version", "--version"}},
	"kotlin":    {version: []string{"-version"}},
	"ksh":       {interpreter: true},
	"lua":       {version: []string{"-v"}, interpreter: true},
	"luajit":    {interpreter: true},
	"make":      {leadingValues: []string{"-C", "--directory", "-f", "--file", "--makefile", "-I", "--include-dir", "-o", "--old-file", "-W", "--what-if", "--assume-new", "-l", "--load-average", "--jobserver-style", "--eval", "-E"}, version: []string{"--version", "-v"}, commandOptions: []string{"--eval", "-E", "-f", "--file", "--makefile", "-C", "--directory", "-I", "--include-dir"}, setsRecipeVars: true},
	"mksh":      {interpreter: true},
	"mvn":       {version: []string{"--version", "-v"}},
	"node":      {version: []string{"--version", "-v"}, interpreter: true},
	"nodejs":    {version: []string{"--version", "-v"}, interpreter: true},
	"npm":       {leadingValues: []string{"--prefix", "-C", "--registry", "--userconfig", "--globalconfig", "--cache", "--loglevel", "--workspace", "-w", "--script-shell", "--node-options", "--logs-dir", "--otp", "--tag", "--before", "--omit", "--include", "--install-strategy", "--location"}, check: npmCmd, commandOptions: []string{"-C", "--prefix", "--script-shell", "--userconfig", "--globalconfig"}, escapes: &npmEscapes},
	"npx":       {writes: "runs packages", runs: true},
	"osascript": {interpreter: true},
	"perl":      {version: []string{"--version", "-v"}, interpreter: true, files: files{use: perlFiles}},
	"php":       {version: []string{"--version", "-v"}, interpreter: true},
	"pip":       {check: pipCmd, escapes: &pipEscapes},
	"pip3":      {check: pipCmd, escapes: &pipEscapes},
	"pnpm":      {leadingValues: []string{"-C", "--dir", "--filter", "-F", "--workspace-dir"}, version: []string{"--version", "-v"}},
	"pwsh":      {interpreter: true},
	"python":    {version: []string{"--version", "-V"}, interpreter: true},
	"python2":   {version: []string{"--version", "-V"}, interpreter: true},
	"python3":   {version: []string{"--version", "-V"}, interpreter: true},
	"ruby":      {version: []string{"--version"}, interpreter: true},
	"rustc":     {version: []string{"--version", "-V", "-vV"}},
	"rustup":    {version: []string{"--version", "-V"}},
	"swift":     {version: []string{"--version"}},
	"tclsh":     {interpreter: true},
	"tcsh":      {interpreter: true},
	"terraform": {version: []string{"--version", "-version"}},
	"ts-node":   {interpreter: true},
	"tsc":       {version: []string{"--version", "-v"}},
	"yarn":      {leadingValues: []string{"--cwd", "--cache-folder", "--modules-folder", "--registry"}, version: []string{"--version", "-v"}},
}

// perlFiles records the files perl -i edits in place. Other words may
// name files perl opens, so all of them are recorded as named.
func perlFiles(w *walker, prog string, args []arg) {
	w.mentions(args)
	if !hasPerlInPlace(args) {
		return
	}
	operands, _ := splitOperands(lookup(prog), args)
	for _, o := range skipFirst(operands, !hasShortOrLong(args, 'e', "") && !hasShortOrLong(args, 'E', "")) {
		w.use(o, true)
		w.use(o, false)
	}
}
