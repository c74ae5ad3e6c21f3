package permission

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// knownTools are the tool names a rule may name besides MCP tools
// (mcp__server__tool).
var knownTools = []string{
	"Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Glob", "Grep", "LS",
	"Bash", "WebFetch", "WebSearch", "Task", "TodoWrite", "AskUserQuestion",
	"EnterPlanMode", "ExitPlanMode",
}

// plainTools take no specifier.
var plainTools = []string{"TodoWrite", "AskUserQuestion", "EnterPlanMode", "ExitPlanMode"}

// lint returns a warning for a rule that parses but probably does not say
// what its author meant, or "".
func (m matcher) lint(r Rule, list string) string {
	_, tool := m.tools[r.Tool]
	if !tool && !slices.Contains(knownTools, r.Tool) && !strings.HasPrefix(r.Tool, "mcp__") {
		return fmt.Sprintf("%s names no tool ponder has, so it matches nothing", r.Text)
	}
	switch r.kind() {
	case KindExec:
		return lintCommand(r)
	case KindRead, KindWrite:
		return m.lintPath(r)
	}
	if r.Specifier != "" && (slices.Contains(plainTools, r.Tool) || tool && m.tools[r.Tool] == KindNone) {
		return fmt.Sprintf("%s: %s takes no specifier, so the rule matches nothing; write %s", r.Text, r.Tool, r.Tool)
	}
	return ""
}

// lintCommand warns about a Bash specifier with a wildcard where ponder
// reads none: only a trailing ":*" or " *" makes a prefix.
func lintCommand(r Rule) string {
	spec := r.Specifier
	body := strings.TrimSuffix(strings.TrimSuffix(spec, ":*"), " *")
	if !strings.Contains(body, "*") {
		return ""
	}
	hint := ""
	if i := strings.IndexByte(spec, '*'); i > 0 && spec[i-1] != ' ' && spec[i-1] != ':' {
		hint = fmt.Sprintf("; for commands starting with %q write Bash(%s:*)", spec[:i], strings.TrimSpace(spec[:i]))
	}
	return fmt.Sprintf("%s: '*' is a wildcard only at the end, after a space or ':', so this rule matches only the literal command %q%s", r.Text, body, hint)
}

// lintPath warns about "/etc/…"-like patterns: a leading '/' means the
// project root, which is a common surprise when the path exists at the
// file-system root instead.
func (m matcher) lintPath(r Rule) string {
	s := r.Specifier
	if !strings.HasPrefix(s, "/") || strings.HasPrefix(s, "//") {
		return ""
	}
	first, _, _ := strings.Cut(strings.TrimPrefix(s, "/"), "/")
	if first == "" || strings.ContainsAny(first, "*?[") {
		return ""
	}
	if _, err := os.Lstat(filepath.Join(m.root, first)); err == nil {
		return ""
	}
	if _, err := os.Lstat(filepath.Join("/", first)); err != nil {
		return ""
	}
	return fmt.Sprintf("%s: a leading '/' means the project root (%s), where %s does not exist; for the absolute path write %s(/%s)",
		r.Text, m.root, first, r.Tool, s)
}
