package permission

import "strings"

// commandMatches matches a Bash specifier against one simple command:
// "git diff:*" and "git diff *" are prefixes that end at a word boundary,
// anything else must equal the command.
func commandMatches(spec, cmd string) bool {
	prefix, isPrefix := strings.CutSuffix(spec, ":*")
	if !isPrefix {
		prefix, isPrefix = strings.CutSuffix(spec, " *")
	}
	if !isPrefix {
		return cmd == spec
	}
	prefix = strings.TrimSpace(prefix)
	return cmd == prefix || strings.HasPrefix(cmd, prefix+" ")
}
