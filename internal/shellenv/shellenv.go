// Package shellenv builds the environment of the commands ponder runs for
// the model. Whatever a command prints goes back to the model, so the
// environment it inherits must not hold ponder's own credentials nor, by
// default, anything else that looks like a secret. A policy in settings
// (shellEnvironment) decides what else is passed, in the spirit of
// Codex's shell_environment_policy:
//
//	"shellEnvironment": {
//	  "inherit": "all" | "core" | "none",   // start from everything (default), a core set, or nothing
//	  "exclude": ["AWS_*"],                  // drop these names (patterns, any case)
//	  "include": ["GITHUB_TOKEN"],           // keep these even when they look secret
//	  "set":     {"CI": "1"}                 // add or replace
//	}
//
// ponder's own credentials (ANTHROPIC_API_KEY and the like) are never
// passed on, whatever the policy includes; only "set" can give a command a
// variable of that name, with a value written in the settings.
package shellenv

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Policy says which variables commands get.
type Policy struct {
	// Inherit is "all" (or ""), "core" or "none".
	Inherit string
	// Exclude and Include are name patterns ('*', '?', '[…]'), compared
	// without regard to case. Exclude wins over Include.
	Exclude, Include []string
	// Set adds or replaces variables.
	Set map[string]string
}

// Credentials are the variables ponder itself reads its model access
// from. They never reach a command.
var Credentials = []string{
	"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN",
	"OPENAI_API_KEY", "OPENAI_ADMIN_KEY", "OPENAI_WEBHOOK_SECRET",
	"AWS_BEARER_TOKEN_BEDROCK",
}

// core is what inherit "core" keeps: enough for programs to find their
// tools, home, temporary directory, language and terminal.
var core = []string{"HOME", "LOGNAME", "PATH", "SHELL", "USER", "USERNAME", "TMPDIR", "TEMP", "TMP", "LANG", "LANGUAGE", "LC_*", "TERM", "TZ"}

// secretWords in a variable's name mark it as a secret.
var secretWords = []string{"KEY", "SECRET", "TOKEN", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL"}

// harmlessWords contain a secret word without being one.
var harmlessWords = []string{"KEYBOARD", "KEYMAP", "KEYTIMEOUT", "TOKENIZERS"}

// urlWithPassword finds a URL carrying a password, such as
// postgres://app:hunter2@db/prod, whatever the variable is called.
var urlWithPassword = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^/@\s:]+:[^/@\s]+@`)

// IsCredential reports whether name is one of ponder's own credentials.
func IsCredential(name string) bool {
	return slices.Contains(Credentials, strings.ToUpper(name))
}

// LooksSecret reports whether a variable, by its name or its value, seems
// to hold a secret.
func LooksSecret(name, value string) bool {
	up := strings.ToUpper(name)
	for _, w := range harmlessWords {
		up = strings.ReplaceAll(up, w, "")
	}
	for _, w := range secretWords {
		if strings.Contains(up, w) {
			return true
		}
	}
	return urlWithPassword.MatchString(value)
}

// Check reports a policy that cannot be applied as written.
func Check(p Policy) error {
	switch p.Inherit {
	case "", "all", "core", "none":
	default:
		return fmt.Errorf("inherit must be all, core or none, not %q", p.Inherit)
	}
	for _, list := range [][]string{p.Exclude, p.Include} {
		for _, pat := range list {
			if _, err := path.Match(pat, ""); err != nil || pat == "" {
				return fmt.Errorf("%q is not a valid name pattern", pat)
			}
		}
	}
	for name := range p.Set {
		if name == "" || strings.ContainsAny(name, "=\x00") {
			return fmt.Errorf("%q is not a variable name", name)
		}
	}
	return nil
}

// Build returns the environment for a command, from environ (KEY=value
// lines, as os.Environ gives them) and the policy. It is a pure function.
func Build(environ []string, p Policy) []string {
	out := make([]string, 0, len(environ)+len(p.Set))
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" || IsCredential(name) {
			continue
		}
		included := matchAny(p.Include, name)
		if !included && (!inherits(p.Inherit, name) || LooksSecret(name, value)) {
			continue
		}
		if matchAny(p.Exclude, name) {
			continue
		}
		out = append(out, kv)
	}
	names := make([]string, 0, len(p.Set))
	for name := range p.Set {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		out = slices.DeleteFunc(out, func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
		out = append(out, name+"="+p.Set[name])
	}
	if !slices.ContainsFunc(out, func(kv string) bool { return strings.HasPrefix(kv, "PATH=") }) {
		out = append(out, "PATH="+keptPath(environ))
	}
	return out
}

// defaultPath is the search path of commands when ponder has none.
const defaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// keptPath is the search path of commands whose policy left PATH out:
// ponder's own, without empty or relative entries, or a fixed one. The
// shell must never be left to its built-in path, which ends in "." and
// so runs programs of the project under common names.
func keptPath(environ []string) string {
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			var keep []string
			for _, d := range strings.Split(v, ":") {
				if strings.HasPrefix(d, "/") {
					keep = append(keep, d)
				}
			}
			if len(keep) > 0 {
				return strings.Join(keep, ":")
			}
		}
	}
	return defaultPath
}

// inherits reports whether the inherit setting passes name on.
func inherits(inherit, name string) bool {
	switch inherit {
	case "core":
		return matchAny(core, name)
	case "none":
		return false
	}
	return true
}

// matchAny reports whether name matches one of the patterns, in any case.
func matchAny(patterns []string, name string) bool {
	up := strings.ToUpper(name)
	for _, p := range patterns {
		if ok, _ := path.Match(strings.ToUpper(p), up); ok {
			return true
		}
	}
	return false
}
