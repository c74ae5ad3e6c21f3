package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ModeRules is a set of allow rules that count in some permission modes
// only, written in permissions.modeRules:
//
//	"permissions": {
//	  "modeRules": [
//	    {"modes": ["plan"], "allow": ["Bash(gh issue view:*)", "Bash(gh pr diff:*)"]}
//	  ]
//	}
//
// With it a user vouches for a command while planning (where it runs in
// the read-only sandbox) without allowing it when ponder may change
// things. Deny and ask rules hold in every mode, so a set has none: they
// are fields here only so that writing them is an error, not a rule
// silently ignored.
type ModeRules struct {
	Modes []string `json:"modes,omitempty"`
	Allow []string `json:"allow,omitempty"`
	Deny  []string `json:"deny,omitempty"`
	Ask   []string `json:"ask,omitempty"`
}

// validateModeRules checks permissions.modeRules and planMode.commands.
func validateModeRules(s Settings) (field, msg string) {
	for i, set := range s.Permissions.ModeRules {
		at := fmt.Sprintf("permissions.modeRules[%d]", i)
		switch {
		case len(set.Deny) > 0:
			return at + ".deny", "deny rules hold in every mode; write them in permissions.deny"
		case len(set.Ask) > 0:
			return at + ".ask", "ask rules hold in every mode; write them in permissions.ask"
		case len(set.Modes) == 0:
			return at, `names no modes (want "modes": ["plan"], say)`
		case len(set.Allow) == 0:
			return at, `allows nothing (want "allow": ["Bash(gh issue view:*)"], say)`
		}
		for j, m := range set.Modes {
			if !slices.Contains(validModes, m) {
				return fmt.Sprintf("%s.modes[%d]", at, j), "must be one of " + strings.Join(validModes, ", ") + ", not " + strconv.Quote(m)
			}
		}
	}
	for i, c := range s.PlanMode.Commands {
		at := fmt.Sprintf("planMode.commands[%d]", i)
		if strings.TrimSpace(c) == "" {
			return at, "is empty (want a command such as \"gh issue view:*\")"
		}
		if spec, ok := strings.CutPrefix(strings.TrimSpace(c), "Bash("); ok && !strings.HasSuffix(spec, ")") {
			return at, strconv.Quote(c) + " is not closed with \")\""
		}
	}
	return "", ""
}

// PlanCommandRules turns planMode.commands into Bash allow rules:
// "gh issue view:*" becomes "Bash(gh issue view:*)"; a rule written out
// ("Bash(gh issue view:*)") stays as it is.
func PlanCommandRules(commands []string) []string {
	out := make([]string, 0, len(commands))
	for _, c := range commands {
		c = strings.TrimSpace(c)
		if strings.HasPrefix(c, "Bash(") {
			out = append(out, c)
			continue
		}
		out = append(out, "Bash("+c+")")
	}
	return out
}
