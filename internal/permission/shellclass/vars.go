package shellclass

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// sensitiveNames are variables whose value decides which program runs, what
// it loads or which configuration it reads. Setting one can turn a
// read-only command into anything.
var sensitiveNames = map[string]bool{
	"PATH": true, "ENV": true, "BASH_ENV": true, "SHELL": true,
	"PS4": true, "PROMPT_COMMAND": true, "CDPATH": true, "GLOBIGNORE": true,
	"TMPDIR": true, "TMP": true, "TEMP": true, "ZDOTDIR": true,
	"PAGER": true, "MANPAGER": true, "EDITOR": true, "VISUAL": true, "BROWSER": true,
	"CC": true, "CXX": true, "CPP": true, "LD": true, "AR": true,
	"MAGIC": true, "TERMINFO": true, "HOSTALIASES": true, "LOCPATH": true,
	"NLSPATH": true, "GCONV_PATH": true, "GLIBC_TUNABLES": true,
	"POSIXLY_CORRECT": true, "GZIP": true, "BZIP2": true, "XZ_OPT": true,
	"HISTFILE": true, "INPUTRC": true, "MAIL": true, "MAILPATH": true,
}

// sensitivePrefixes are families of variables that configure programs.
var sensitivePrefixes = []string{
	"LD_", "DYLD_", "GIT_", "BASH", "SHELL", "PYTHON", "NODE_", "NPM_",
	"PERL", "RUBY", "GEM_", "JAVA", "_JAVA", "JDK_", "CGO_", "LESS",
	"SSH_", "GPG", "DOCKER_", "KUBE", "CARGO_", "RUSTUP_", "RUSTC",
	"RUST", "SUDO_", "XDG_", "TERM",
}

// sensitiveParts are words that mark a variable as configuring a program.
var sensitiveParts = []string{
	"PATH", "LIB", "PRELOAD", "CONFIG", "OPT", "FLAGS", "PAGER", "EDITOR",
	"COMMAND", "CMD", "EXEC", "PROG", "HOOK", "PLUGIN", "ASKPASS", "HOME",
	"ENV", "PROFILE", "STARTUP",
}

// goSafeNames are Go variables that only select a target.
var goSafeNames = map[string]bool{
	"GOOS": true, "GOARCH": true, "GOWORK": true, "GO111MODULE": true,
	"CGO_ENABLED": true, "GOAMD64": true, "GOARM": true, "GOARM64": true,
}

// termSafeNames are variables starting with a sensitive prefix that only
// describe the terminal.
var termSafeNames = map[string]bool{
	"TERM": true, "COLORTERM": true,
}

// zshSensitive are zsh variables tied to PATH and friends.
var zshSensitive = map[string]bool{
	"path": true, "fpath": true, "module_path": true, "cdpath": true,
	"manpath": true, "mailpath": true, "prompt": true, "PROMPT": true,
	"RPROMPT": true, "PS1": true, "precmd_functions": true,
	"preexec_functions": true, "chpwd_functions": true,
}

// sensitiveVar returns why assigning name is refused, or "".
func sensitiveVar(name string, zsh bool) string {
	if zsh && zshSensitive[name] {
		return fmt.Sprintf("sets the variable %q, which changes what zsh runs", name)
	}
	if goSafeNames[name] || termSafeNames[name] {
		return ""
	}
	bad := sensitiveNames[name] || strings.HasPrefix(name, "GO")
	for _, p := range sensitivePrefixes {
		bad = bad || strings.HasPrefix(name, p)
	}
	for _, p := range sensitiveParts {
		bad = bad || strings.Contains(name, p)
	}
	if !bad {
		return ""
	}
	return fmt.Sprintf("sets the variable %q, which can change what programs run or load", name)
}

// pagerNames are variables naming a pager; they may be set to a pager that
// only shows text.
var pagerNames = map[string]bool{
	"PAGER": true, "GIT_PAGER": true, "MANPAGER": true, "SYSTEMD_PAGER": true,
}

// harmlessPagers are the values allowed for pagerNames.
var harmlessPagers = map[string]bool{"": true, "cat": true, "less": true, "more": true}

// assignReason returns why assigning value to name is refused, or "".
// lit says the value is a plain literal.
func assignReason(name, value string, lit, zsh bool) string {
	if lit && pagerNames[name] && harmlessPagers[value] {
		return ""
	}
	return sensitiveVar(name, zsh)
}

// validName reports whether s is a shell variable name.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		switch {
		case c == '_', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// numericSpecial are variables bash itself keeps numeric.
var numericSpecial = map[string]bool{
	"#": true, "?": true, "$": true, "!": true, "RANDOM": true, "SRANDOM": true,
	"SECONDS": true, "EPOCHSECONDS": true, "LINENO": true, "COLUMNS": true,
	"LINES": true, "BASHPID": true, "PPID": true, "UID": true, "EUID": true,
	"SHLVL": true, "HISTCMD": true, "OPTIND": true, "PIPESTATUS": true,
}

// numericWord reports whether a word's value is certainly a number: a
// decimal literal, an arithmetic expansion, or empty.
func numericWord(word *syntax.Word) bool {
	if word == nil {
		return true
	}
	if len(word.Parts) == 1 {
		if l, ok := word.Parts[0].(*syntax.Lit); ok {
			return numericText(l.Value)
		}
	}
	for _, p := range word.Parts {
		if _, ok := p.(*syntax.ArithmExp); !ok {
			return false
		}
	}
	return true
}

// numericText reports whether s is empty or a decimal integer.
func numericText(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// braceSequence reports whether a word is a numeric brace sequence such as
// {1..10} or {0..20..5}.
func braceSequence(word *syntax.Word) bool {
	if len(word.Parts) != 1 {
		return false
	}
	l, ok := word.Parts[0].(*syntax.Lit)
	if !ok {
		return false
	}
	inner, ok := strings.CutPrefix(l.Value, "{")
	if !ok {
		return false
	}
	inner, ok = strings.CutSuffix(inner, "}")
	if !ok {
		return false
	}
	parts := strings.Split(inner, "..")
	if len(parts) < 2 || len(parts) > 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || !numericText(p) {
			return false
		}
	}
	return true
}

// arithNames returns the variable names used in a piece of arithmetic text,
// skipping numeric constants such as 0x1f and 16#ff.
func arithNames(s string) []string {
	var names []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			for i < len(s) && (isNameByte(s[i]) || s[i] == '#' || s[i] == '@') {
				i++
			}
		case isNameByte(c):
			j := i
			for j < len(s) && isNameByte(s[j]) {
				j++
			}
			names = append(names, s[i:j])
			i = j
		default:
			i++
		}
	}
	return names
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// leadingName returns the variable name at the start of s, if any.
func leadingName(s string) string {
	i := 0
	for i < len(s) && isNameByte(s[i]) {
		i++
	}
	if i == 0 || s[0] >= '0' && s[0] <= '9' {
		return ""
	}
	return s[:i]
}
