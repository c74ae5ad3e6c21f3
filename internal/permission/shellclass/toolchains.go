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

// goRefusedFlags are go build flags that run programs or write outside the
// build cache.
var goRefusedFlags = map[string]string{
	"toolexec": "runs a program for each tool", "vettool": "runs another vet program",
	"exec": "runs a program", "pkgdir": "writes packages to a directory",
	"o": "writes a file", "fix": "rewrites source files", "modcacherw": "makes the module cache writable",
}

// goFlags checks the flags of a read-only go subcommand.
func goFlags(sub string, args []arg) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.is("--") {
			return ""
		}
		if reason := unsure("go "+sub, a); reason != "" {
			return reason
		}
		if !a.isOpt() {
			continue
		}
		name := goFlagName(a.text)
		if why, ok := goRefusedFlags[name]; ok {
			return fmt.Sprintf("%q -%s %s", "go "+sub, name, why)
		}
		if strings.HasPrefix(name, "debug-") {
			return fmt.Sprintf("%q -%s writes a debug file", "go "+sub, name)
		}
		if name == "mod" {
			_, val, ok := strings.Cut(a.text, "=")
			if !ok && i+1 < len(args) {
				i++
				val = args[i].text
			}
			if val != "readonly" && val != "vendor" {
				return fmt.Sprintf("%q -mod=%s may change go.mod", "go "+sub, val)
			}
		}
	}
	return ""
}

// goCmd allows go version, env, list, doc, vet, help and the reading mod
// subcommands.
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
	case "version", "help", "doc", "list", "vet":
		return goFlags(sub.text, rest)
	case "env":
		for _, a := range rest {
			if reason := unsure("go env", a); reason != "" {
				return reason
			}
			if name := goFlagName(a.text); a.isOpt() && (name == "w" || name == "u") {
				return fmt.Sprintf("%q changes the Go configuration", "go env -"+name)
			}
		}
		return ""
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

// npmCmd allows npm ls, view and their aliases.
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
	case "ls", "list", "ll", "la", "view", "info", "show", "v", "help":
	default:
		return fmt.Sprintf("%q is not a read-only npm command", "npm "+sub.text)
	}
	for _, a := range args[1:] {
		if reason := unsure("npm "+sub.text, a); reason != "" {
			return reason
		}
		if name, _, _ := strings.Cut(a.text, "="); a.isOpt() && !npmOptions[name] {
			return fmt.Sprintf("%q option %s is not known to be safe", "npm "+sub.text, name)
		}
	}
	return ""
}

// npmOptions are the options allowed with npm's reading subcommands.
// Others can point logs or the cache into the project.
var npmOptions = map[string]bool{
	"--all": true, "-a": true, "--json": true, "--long": true, "-l": true,
	"--parseable": true, "-p": true, "--global": true, "-g": true,
	"--depth": true, "--omit": true, "--include": true, "--link": true,
	"--production": true, "--prod": true, "--dev": true, "--workspace": true,
	"--workspaces": true, "-w": true, "--package-lock-only": true,
	"--unicode": true, "--no-unicode": true,
}

// pipOptions are the options allowed with pip's reading subcommands.
// Others can write log files (--log) or reports.
var pipOptions = map[string]bool{
	"--format": true, "--outdated": true, "-o": true, "--uptodate": true,
	"-u": true, "--user": true, "--local": true, "-l": true,
	"--not-required": true, "--files": true, "-f": true, "--verbose": true,
	"-v": true, "--all": true, "--exclude-editable": true,
	"--include-editable": true, "--editable": true, "-e": true,
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
