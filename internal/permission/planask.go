package permission

import (
	"fmt"

	"github.com/ponder-agent/ponder/internal/permission/shellclass"
)

// Ask, then run confined. In plan mode every command runs in the OS
// sandbox, where nothing but its scratch directory is writable and the
// network is closed but for the fetches the rules let through. A command
// the classifier cannot prove read-only is therefore not refused outright
// where a sandbox is available: the user is asked whether it may run
// there, and an allow rule (one for every mode, or one scoped to plan
// mode) may let it run there unasked. Either way it runs confined, so
// plan mode's hard limit holds: a yes leads to a confined run and nothing
// else. Without a sandbox, in the background, or in a read-only agent the
// limit refuses as before.

// planMayConfine reports whether a shell line plan mode's limit would
// refuse may instead be decided by the rules and run confined. The caller
// holds e.mu.
func (e *Engine) planMayConfine(c Context, a Access, class shellclass.Result) bool {
	return c.Mode == ModePlan && !c.ReadOnlyAgent && a.Kind == KindExec && !a.Background &&
		!class.ReadOnly && e.sandbox.Available
}

// planConfined turns the rules' decision on such a line into plan mode's:
// a refusal stands, an allow runs confined (confine sees to that), and a
// question becomes "run it in the read-only sandbox?", whose "don't ask
// again" rule counts in plan mode alone.
func planConfined(d Decision, a Access, class shellclass.Result, planFile string) Decision {
	if d.Behavior != Ask {
		return d
	}
	why := ""
	if d.Rule != "mode" && d.Reason != "" {
		why = " " + d.Reason
	}
	how := "To let such commands run in plan mode without asking, the user can list them in planMode.commands in their settings"
	if d.Suggest != "" {
		how += fmt.Sprintf(" (for this one, %q)", bashSpecifier(d.Suggest))
	}
	d.Rule = "plan mode"
	d.Reason = fmt.Sprintf("Plan mode is on and %q may change the system (%s). It can run only in the read-only sandbox, "+
		"where nothing but a scratch directory is writable and anything it tries to change fails.%s Run it there? %s.",
		a.Command, class.Reason, why, how)
	if planFile != "" {
		d.Reason += " The plan goes in the plan file, " + planFile + "."
	}
	if d.Suggest != "" {
		d.SuggestModes = []Mode{ModePlan}
	}
	d.Sandbox = true
	return d
}

// bashSpecifier is what a Bash rule allows ("git log:*" of
// "Bash(git log:*)"), or the rule itself when it is not one.
func bashSpecifier(rule string) string {
	r, err := ParseRule(rule)
	if err != nil || r.Tool != "Bash" || r.Specifier == "" {
		return rule
	}
	return r.Specifier
}

// planNetwork keeps the network closed to a line that runs confined only
// because plan mode asked or a plan-mode rule allowed it, unless WebFetch
// rules allow every fetch it makes: a yes to run a command in the
// read-only sandbox is no yes to send data out. The caller holds e.mu.
func (e *Engine) planNetwork(c Context, class shellclass.Result, d Decision) Decision {
	if _, ok := fetchesAllowed(class, e.allowIn(c.Mode)); !ok {
		d.Ports, d.Lookup = nil, false
	}
	return d
}
