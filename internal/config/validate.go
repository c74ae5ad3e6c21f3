package config

import (
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

var (
	validModes    = []string{"default", "acceptEdits", "plan", "bypassPermissions"}
	validVariants = []string{"full", "trim", "cut", "cap"}
	validNaming   = []string{"words", "session-timestamp"}
	validProvider = []string{"anthropic", "openai"}
	validEffort   = []string{"low", "medium", "high"}
)

// validate checks values whose type is right but whose content is not. It
// returns the dotted name of the first bad setting and what is wrong.
func validate(s Settings) (field, msg string) {
	oneOf := func(name string, v *string, allowed []string) bool {
		if v == nil {
			return true
		}
		for _, a := range allowed {
			if *v == a {
				return true
			}
		}
		field, msg = name, "must be one of "+strings.Join(allowed, ", ")+", not "+strconv.Quote(*v)
		return false
	}
	between := func(name string, v *int, lo, hi int) bool {
		if v == nil || (*v >= lo && *v <= hi) {
			return true
		}
		field, msg = name, "must be between "+strconv.Itoa(lo)+" and "+strconv.Itoa(hi)
		return false
	}
	_ = oneOf("permissions.defaultMode", s.Permissions.DefaultMode, validModes) &&
		oneOf("provider", s.Provider, validProvider) &&
		oneOf("effort.plan", s.Effort.Plan, validEffort) &&
		oneOf("effort.implement", s.Effort.Implement, validEffort) &&
		oneOf("planMode.variant", s.PlanMode.Variant, validVariants) &&
		oneOf("planMode.fileNaming", s.PlanMode.FileNaming, validNaming) &&
		between("planMode.exploreAgentCount", s.PlanMode.ExploreAgentCount, 1, 10) &&
		between("planMode.planAgentCount", s.PlanMode.PlanAgentCount, 1, 10) &&
		between("planMode.reminderTurns", s.PlanMode.ReminderTurns, 1, 1000) &&
		between("planMode.fullReminderEvery", s.PlanMode.FullReminderEvery, 1, 1000) &&
		between("retry.maxAttempts", s.Retry.MaxAttempts, 1, 20) &&
		between("context.window", s.Context.Window, 1000, 100_000_000) &&
		between("files.maxWriteMiB", s.Files.MaxWriteMiB, 1, 4096)
	if field == "" && s.Context.AutoCompactAt != nil && (*s.Context.AutoCompactAt < 0 || *s.Context.AutoCompactAt > 1) {
		field, msg = "context.autoCompactAt", "must be between 0 and 1"
	}
	if field == "" {
		field, msg = validateShellEnvironment(s.ShellEnvironment)
	}
	if field == "" {
		for _, f := range s.TrustedFolders {
			if !filepath.IsAbs(f) && f != "~" && !strings.HasPrefix(f, "~/") {
				return "trustedFolders", fmt.Sprintf("%q must be an absolute path or start with ~/", f)
			}
		}
	}
	if field == "" {
		for k, v := range s.ModelAliases {
			if strings.TrimSpace(k) == "" || v == "" || strings.ContainsFunc(v, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
				return "modelAliases", fmt.Sprintf("%q: %q must be a model name, one word of printable characters", k, v)
			}
		}
	}
	if field == "" {
		for k, p := range s.ModelPrices {
			if p.Input < 0 || p.Output < 0 || p.CacheRead < 0 || p.CacheWrite < 0 || p.Input > 1e4 || p.Output > 1e4 || p.CacheRead > 1e4 || p.CacheWrite > 1e4 {
				return "modelPrices", fmt.Sprintf("%q: prices are US dollars per million tokens, between 0 and 10000", k)
			}
		}
	}
	if field == "" {
		field, msg = validateTeam(s.Team)
	}
	if field == "" {
		field, msg = validateHooks(s.Hooks)
	}
	if field == "" {
		field, msg = validateModeRules(s)
	}
	if field == "" && s.Network.IdleTimeout != nil && (*s.Network.IdleTimeout < MinIdleTimeout || *s.Network.IdleTimeout > MaxIdleTimeout) {
		field, msg = "network.idleTimeout", fmt.Sprintf("must be between %d and %d seconds", MinIdleTimeout, MaxIdleTimeout)
	}
	return field, msg
}

// validateShellEnvironment checks the shell environment policy.
func validateShellEnvironment(e ShellEnvironment) (field, msg string) {
	if e.Inherit != nil {
		switch *e.Inherit {
		case "all", "core", "none":
		default:
			return "shellEnvironment.inherit", "must be one of all, core, none, not " + strconv.Quote(*e.Inherit)
		}
	}
	for name, list := range map[string][]string{"shellEnvironment.exclude": e.Exclude, "shellEnvironment.include": e.Include} {
		for _, p := range list {
			if _, err := path.Match(p, ""); err != nil || p == "" {
				return name, strconv.Quote(p) + " is not a valid name pattern"
			}
		}
	}
	for k := range e.Set {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return "shellEnvironment.set", strconv.Quote(k) + " is not a variable name"
		}
	}
	return "", ""
}
