package shellclass

import (
	"fmt"
	"strings"
)

// This file decides which variables a read-only line may set. Programs
// read their configuration from the environment (PAGER, GIT_EXTERNAL_DIFF,
// NODE_OPTIONS, LD_PRELOAD, npm_config_*, ...), and no list of such
// variables is ever complete, so the rule is an allow-list: a variable may
// be set when it is known to be harmless (with a value known to be
// harmless), or when it is one of the line's own shell variables, which
// reach no program. Everything else is an environment change whose effect
// is not known, so the line is not read-only and is listed in
// Result.Env.

// harmlessVars are variables that only change how programs present their
// output (language, time zone, colours, width) or that make them do less,
// with a check of the values that keep them so.
var harmlessVars = map[string]func(string) bool{
	"LANG": plainWord, "LANGUAGE": localeList, "TZ": anyValue,
	"NO_COLOR": anyValue, "FORCE_COLOR": anyValue, "CLICOLOR": anyValue,
	"CLICOLOR_FORCE": anyValue, "COLUMNS": digits, "LINES": digits,
	"TERM": plainWord, "COLORTERM": plainWord, "IFS": anyValue, "CI": anyValue,
	"PAGER": pagerValue, "GIT_PAGER": pagerValue, "MANPAGER": pagerValue,
	"SYSTEMD_PAGER": pagerValue, "GIT_OPTIONAL_LOCKS": oneOf("0"),
	"GIT_TERMINAL_PROMPT": oneOf("0"), "GREP_COLOR": anyValue,
	"GREP_COLORS": anyValue, "LS_COLORS": anyValue,
	"PYTHONDONTWRITEBYTECODE": anyValue, "PYTHONUNBUFFERED": anyValue,
	"RUST_BACKTRACE": anyValue, "NODE_NO_WARNINGS": anyValue,
	"GOOS": plainWord, "GOARCH": plainWord, "CGO_ENABLED": oneOf("0", "1"),
	"GO111MODULE": oneOf("on", "off", "auto", ""), "GOWORK": oneOf("off"),
	"GOTOOLCHAIN": oneOf("local"), "GOPROXY": oneOf("off"),
	"REPLY": anyValue, "OPTIND": digits,
}

// harmlessValue returns the value check for a harmless variable.
func harmlessValue(name string) (func(string) bool, bool) {
	if check, ok := harmlessVars[name]; ok {
		return check, true
	}
	if strings.HasPrefix(name, "LC_") && validName(name) {
		return plainWord, true
	}
	return nil, false
}

func anyValue(string) bool { return true }

// plainWord accepts names such as en_US.UTF-8 or xterm-256color, and no
// paths: a locale or terminal name with a slash is read from that file.
func plainWord(s string) bool {
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9',
			c == '_', c == '.', c == '@', c == '-', c == '+':
		default:
			return false
		}
	}
	return true
}

func localeList(s string) bool {
	for _, part := range strings.Split(s, ":") {
		if !plainWord(part) {
			return false
		}
	}
	return true
}

func digits(s string) bool { return s != "" && numericText(s) && !strings.ContainsAny(s, "+-") }

func pagerValue(s string) bool { return s == "" || lookup(s).pager }

func oneOf(values ...string) func(string) bool {
	return func(s string) bool {
		for _, v := range values {
			if s == v {
				return true
			}
		}
		return false
	}
}

// privateName reports whether name is a shell variable of the line's own:
// one with a lowercase letter. POSIX leaves lowercase names to
// applications, and the programs that do read lowercase variables are
// known (the *_proxy family, npm_config_* and other package managers).
// Uppercase names may be inherited from the environment, where assigning
// them changes what every program started afterwards sees.
func privateName(name string) bool {
	if !strings.ContainsAny(name, "abcdefghijklmnopqrstuvwxyz") {
		return false
	}
	lower := strings.ToLower(name)
	if strings.HasSuffix(lower, "_proxy") {
		return false
	}
	for _, p := range []string{"npm_", "yarn_", "pnpm_", "bun_", "deno_"} {
		if strings.HasPrefix(lower, p) {
			return false
		}
	}
	return true
}

// zshSensitive are zsh variables tied to PATH and friends.
var zshSensitive = map[string]bool{
	"path": true, "fpath": true, "module_path": true, "cdpath": true,
	"manpath": true, "mailpath": true, "prompt": true, "PROMPT": true,
	"RPROMPT": true, "PS1": true, "precmd_functions": true,
	"preexec_functions": true, "chpwd_functions": true,
}

// unknownValue stands for a value only known at run time.
var unknownValue = arg{text: "a value only known at run time"}

// varChange checks that the line gives name a value, which it shows as text
// (such as "PATH=./bin"). value is the value, nil when the variable keeps
// the one it has (export NAME); exported says the
// variable reaches the environment of a program (a prefix assignment,
// export, env NAME=value).
func (w *walker) varChange(name, text string, value *arg, exported bool) {
	if w.zsh && zshSensitive[name] {
		w.envChange(text, fmt.Sprintf("sets the variable %q, which changes what zsh runs", name))
		return
	}
	if check, ok := harmlessValue(name); ok {
		if value == nil || value.lit && check(value.text) {
			return
		}
		w.envChange(text, fmt.Sprintf("sets the variable %q to %s, which is not a value known to be harmless", name, value.text))
		return
	}
	if !exported && privateName(name) {
		return
	}
	w.envChange(text, fmt.Sprintf("sets the variable %q, which may change what programs run or do; only variables known to be harmless (such as LANG, TZ or NO_COLOR) and the line's own lowercase variables may be set", name))
}

// droppable are the harmless variables whose absence is harmless too; the
// others (GIT_OPTIONAL_LOCKS=0, GOPROXY=off, ...) are harmless because of
// the value they have.
var droppable = map[string]bool{
	"LANG": true, "LANGUAGE": true, "TZ": true, "NO_COLOR": true, "FORCE_COLOR": true,
	"CLICOLOR": true, "CLICOLOR_FORCE": true, "COLUMNS": true, "LINES": true,
	"TERM": true, "COLORTERM": true, "IFS": true, "REPLY": true, "CI": true,
}

// dropVar checks that the line removes name from the environment (unset,
// env -u, export -n). Removing a variable can undo a protection ponder
// sets, such as GIT_OPTIONAL_LOCKS=0.
func (w *walker) dropVar(name, text string) {
	if droppable[name] || strings.HasPrefix(name, "LC_") || privateName(name) {
		return
	}
	w.envChange(text, fmt.Sprintf("removes the variable %q from the environment, which may change what programs do", name))
}

// envChange records an environment change that is not known to be
// harmless.
func (w *walker) envChange(text, reason string) {
	w.env = append(w.env, text)
	w.hide(reason)
}
