package permission

import (
	"fmt"
	"slices"
	"strings"
)

// What the model is offered and what it may call come from one place: a
// tool the engine would refuse whatever the input is not offered, and a
// call of a tool that was not offered is refused with the reason.

// Offers reports whether a tool (by name and the kind it declares) may be
// offered to the caller of context c at all. It may not when the calling
// agent may not use it, or when a deny rule without a specifier covers it:
// every call of it would be refused. The agent loop offers the model the
// tools its session has in the current mode that pass this test, and
// hands the list to Decide as Context.Offered.
func (e *Engine) Offers(c Context, tool string, kind Kind) bool {
	e.mu.RLock()
	defer e.mu.RUnlock()
	_, withheld := e.withheld(c, Access{Tool: tool, Kind: kind})
	return !withheld && !(c.Subagent && kind == KindAgent)
}

// unusable refuses a call of a tool the caller may not use at all,
// whatever its input: a tool withheld from it (see withheld), for a
// subagent launching another agent, and a tool not offered to it.
func (e *Engine) unusable(c Context, a Access) (Decision, bool) {
	if d, ok := e.withheld(c, a); ok {
		return d, true
	}
	if c.Subagent && a.Kind == KindAgent {
		return Decision{Behavior: Deny, Rule: "agent tools", Reason: "Subagents cannot launch agents of their own."}, true
	}
	if c.Offered != nil && !slices.Contains(c.Offered, a.Tool) {
		avail := "none"
		if len(c.Offered) > 0 {
			avail = strings.Join(c.Offered, ", ")
		}
		return Decision{Behavior: Deny, Rule: "not offered", Reason: fmt.Sprintf(
			"There is no tool named %q available here and now. Available tools: %s.", a.Tool, avail)}, true
	}
	return Decision{}, false
}

// withheld refuses a tool the calling agent may not use, and one a deny
// rule without a specifier covers. The caller holds e.mu.
func (e *Engine) withheld(c Context, a Access) (Decision, bool) {
	if slices.Contains(c.DeniedTools, a.Tool) {
		who := "this agent"
		if c.AgentType != "" {
			who = "the " + c.AgentType + " agent"
		}
		return Decision{Behavior: Deny, Rule: "agent tools", Reason: fmt.Sprintf("%s may not use %s.", who, a.Tool)}, true
	}
	for _, r := range e.deny {
		if applies(r, a) && (r.Specifier == "" || r.kind() == KindExec && anyCommand(r)) {
			return Decision{Behavior: Deny, Rule: "deny rule " + r.Text, Reason: fmt.Sprintf("Denied by the permission rule %s (%s).", r.Text, r.origin())}, true
		}
	}
	return Decision{}, false
}
