package tui

import "strings"

// Whose question a dialog shows: the main agent's, a subagent's, or a
// teammate's ("teammate:NAME"), whose name the title gives.

// teammateOf is the teammate an agent id names, or "".
func teammateOf(agentID string) string {
	name, ok := strings.CutPrefix(agentID, "teammate:")
	if !ok {
		return ""
	}
	return display(name)
}

// askerName is who asks, for a dialog's title.
func askerName(agentID string) string {
	if name := teammateOf(agentID); name != "" {
		return name
	}
	return "a subagent"
}

// approvalTitle is the plan approval's title: a teammate's plan is
// named as its.
func approvalTitle(agentID string) string {
	if name := teammateOf(agentID); name != "" {
		return "Ready to code? Here is " + name + "'s plan"
	}
	return "Ready to code? Here is ponder's plan"
}
