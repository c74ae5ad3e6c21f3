package permission

import (
	"fmt"
	"slices"
)

// Rules for some modes only. A user may vouch for a command in one mode
// and not the others ("gh issue view" while planning, where it runs in
// the read-only sandbox, but not when ponder may change things): such a
// rule set names its modes, and its rules count only while the session is
// in one of them. Only allow rules can be scoped this way: a deny or ask
// rule that lapsed in some mode would be a hole, not a convenience.

// addModeAllow compiles the allow rules of a set scoped to modes.
func (e *Engine) addModeAllow(m matcher, set RuleSet) error {
	if len(set.Ask) > 0 || len(set.Deny) > 0 {
		return fmt.Errorf("%s: permissions: rules for some modes only can only allow; deny and ask rules hold in every mode", where(set.Source, set.File))
	}
	for _, mode := range set.Modes {
		if _, err := ParseMode(string(mode)); err != nil {
			return fmt.Errorf("%s: permissions: %w", where(set.Source, set.File), err)
		}
	}
	for _, text := range set.Allow {
		for _, part := range SplitRuleList(text) {
			rule, err := parseWith(m, part, set.Source, set.File)
			if err != nil {
				return fmt.Errorf("%s: permissions.allow (modes %v): %w", where(set.Source, set.File), set.Modes, err)
			}
			if w := m.lint(rule, "allow"); w != "" {
				e.warnings = append(e.warnings, fmt.Sprintf("%s: permissions.allow: %s", rule.origin(), w))
			}
			rule.c.modes = slices.Clone(set.Modes)
			e.modeAllow = append(e.modeAllow, rule)
			e.addSpec(rule)
		}
	}
	return nil
}

// allowIn is the allow rules that count in mode: those for every mode,
// then those scoped to it. The caller holds e.mu.
func (e *Engine) allowIn(mode Mode) []Rule {
	scoped := e.scopedTo(mode)
	if len(scoped) == 0 {
		return e.allow
	}
	return slices.Concat(e.allow, scoped)
}

// scopedTo is the allow rules scoped to mode. The caller holds e.mu.
func (e *Engine) scopedTo(mode Mode) []Rule {
	var scoped []Rule
	for _, r := range e.modeAllow {
		if slices.Contains(r.c.modes, mode) {
			scoped = append(scoped, r)
		}
	}
	return scoped
}

// AddAllowIn adds an allow rule for the rest of the session that counts
// only in the given modes; with none it counts in every mode, as AddAllow.
// A yes given in plan mode, where the command runs in the read-only
// sandbox whatever it does, is added for plan mode alone: it must not
// become a yes to run the command unconfined once plan mode ends.
func (e *Engine) AddAllowIn(text string, modes ...Mode) error {
	if len(modes) == 0 {
		return e.AddAllow(text)
	}
	r, err := e.parse(text, SourceSession, "")
	if err != nil {
		return err
	}
	r.c.modes = slices.Clone(modes)
	e.mu.Lock()
	e.modeAllow = append(e.modeAllow, r)
	e.addSpec(r)
	e.mu.Unlock()
	return nil
}
