package permission

import (
	"fmt"
	"strings"

	"github.com/ponder-agent/ponder/internal/permission/shellclass"
)

// readOnlyLimit applies the hard limits of plan mode and of read-only
// agents. It returns decided=false when the call is within the limits and
// the remaining rules should decide.
func readOnlyLimit(c Context, a Access, canon []string, class shellclass.Result) (d Decision, decided bool) {
	limit, why := "plan mode", "Plan mode is on, so nothing but the plan file may change."
	if c.ReadOnlyAgent {
		limit, why = "read-only agent", "This agent may only read."
		if c.AgentType != "" {
			why = "The " + c.AgentType + " agent may only read."
		}
	}
	deny := func(format string, args ...any) (Decision, bool) {
		msg := why + " " + sentence(fmt.Sprintf(format, args...))
		if c.Mode == ModePlan && c.PlanFile != "" && !strings.Contains(msg, c.PlanFile) {
			msg += " The plan file is " + c.PlanFile + "."
		}
		return Decision{Behavior: Deny, Rule: limit, Reason: msg}, true
	}
	switch a.Kind {
	case KindNone, KindRead, KindNetwork:
		return Decision{}, false
	case KindExec:
		if a.Background {
			return deny("Commands cannot run in the background here: nothing a command starts may outlive it. Run it without run_in_background.")
		}
		if class.ReadOnly {
			return Decision{}, false
		}
		return deny("The command %q may change the system (%s); only read-only commands can run.", a.Command, class.Reason)
	case KindAgent:
		if a.AgentReadOnly {
			return Decision{}, false
		}
		return deny("The %s agent type can change files; only read-only agent types (such as Explore and Plan) can be launched.", a.Target)
	case KindExternal:
		if a.ReadOnly {
			return Decision{}, false
		}
		return deny("The MCP tool %s is not marked read-only in the settings of its server, so it may change things; only MCP tools the user marked read-only can be used here.", a.Tool)
	case KindWrite:
		if c.ReadOnlyAgent || c.Mode != ModePlan || c.PlanFile == "" {
			return deny("%s cannot write files.", a.Tool)
		}
		if err := planModeWrite(c.Mode, c.PlanFile, a.Paths, canon); err != nil {
			return deny("%v", err)
		}
		if err := planFileIntact(c.PlanFile); err != nil {
			return deny("%v", err)
		}
		return Decision{Behavior: Allow, Rule: "plan file", Reason: "Writing the plan file is allowed in plan mode."}, true
	}
	return deny("The tool %s is not allowed.", a.Tool)
}

// sentence capitalises s and ends it with a full stop. Callers start s
// with a word, never a name such as a tool's, which must keep its case.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
