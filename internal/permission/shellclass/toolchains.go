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
