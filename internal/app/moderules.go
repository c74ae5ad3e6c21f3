package app

import (
	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/permission"
)

// modeRuleSets are the rule sets of one settings file that count in some
// modes only: each of its permissions.modeRules, and planMode.commands as
// Bash allow rules for plan mode. (An untrusted project's are gone
// already, as its other allow rules are.)
func modeRuleSets(src permission.Source, file, root string, s config.Settings) []permission.RuleSet {
	var sets []permission.RuleSet
	for _, mr := range s.Permissions.ModeRules {
		modes := make([]permission.Mode, len(mr.Modes))
		for i, m := range mr.Modes {
			modes[i] = permission.Mode(m)
		}
		sets = append(sets, permission.RuleSet{Source: src, File: file, Root: root, Modes: modes, Allow: mr.Allow, Ask: mr.Ask, Deny: mr.Deny})
	}
	if len(s.PlanMode.Commands) > 0 {
		sets = append(sets, permission.RuleSet{Source: src, File: file, Root: root, Modes: []permission.Mode{permission.ModePlan},
			Allow: config.PlanCommandRules(s.PlanMode.Commands)})
	}
	return sets
}
