package sessiontool

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
)

// Implementer is what an approval changes besides the mode: the rules it
// grants for the session and the model that implements the plan. The
// session provides it; ExitPlanMode and the resume path use it.
type Implementer interface {
	// JudgeGrant parses a rule a plan asks for and says how far it
	// reaches (see permission.Engine.JudgeGrant).
	JudgeGrant(rule string) (permission.Reach, error)
	// CheckModel returns nil when name may be given the implementation.
	CheckModel(name string) error
	// Models lists the models an approval may choose, the one in use
	// first.
	Models() []string
	// Implement applies an approval that stands: the model ("" keeps
	// it) and the rules to allow for the rest of the session.
	Implement(model string, rules []string)
}

// NoteKeeper is an Implementer that keeps the user's notes on an approved
// plan for an implementation that starts in a fresh conversation.
type NoteKeeper interface {
	KeepNotes(notes []event.Annotation)
}

// exitInput is ExitPlanMode's input: nothing, or the permissions the
// implementation will need.
type exitInput struct {
	// Plan is the plan itself, from models taught the older form of the
	// tool (see Prepare).
	Plan        *string `json:"plan"`
	Permissions []struct {
		Rule   string `json:"rule"`
		Reason string `json:"reason"`
	} `json:"permissions"`
}

const exitSchema = `{"type":"object","properties":{"permissions":{"type":"array","maxItems":20,` +
	`"description":"Permissions the implementation will need, granted for this session if the user approves (for example rules to run the tests).",` +
	`"items":{"type":"object","properties":{"rule":{"type":"string","description":"A permission rule as in settings: Bash(go test:*), Bash(npm run lint), Edit(src/**)"},` +
	`"reason":{"type":"string","description":"Why the implementation needs it, in a few words"}},"required":["rule"],"additionalProperties":false}}},` +
	`"additionalProperties":false}`

// Limits on what a plan may ask for, so a dialog can show it all.
const (
	maxPermissions = 20
	maxRuleLen     = 200
	maxReasonLen   = 300
)

// judge checks the permissions a plan asks for and marks those that reach
// outside the project. Duplicates are dropped.
func (t ExitPlanMode) judge(in []struct {
	Rule   string `json:"rule"`
	Reason string `json:"reason"`
}) ([]event.PlanPermission, error) {
	if len(in) == 0 {
		return nil, nil
	}
	if t.Impl == nil {
		return nil, fmt.Errorf("permissions cannot be granted in this session; leave the field out")
	}
	if len(in) > maxPermissions {
		return nil, fmt.Errorf("permissions: at most %d rules, got %d", maxPermissions, len(in))
	}
	var out []event.PlanPermission
	for i, p := range in {
		rule := strings.TrimSpace(p.Rule)
		reason := strings.TrimSpace(p.Reason)
		if !printable(rule) || !printable(reason) {
			return nil, fmt.Errorf("permissions[%d]: rule and reason must be printable text on one line", i)
		}
		if len(rule) > maxRuleLen || utf8.RuneCountInString(reason) > maxReasonLen {
			return nil, fmt.Errorf("permissions[%d]: the rule may be %d bytes and the reason %d characters at most", i, maxRuleLen, maxReasonLen)
		}
		reach, err := t.Impl.JudgeGrant(rule)
		if err != nil {
			return nil, fmt.Errorf("permissions[%d]: %v", i, err)
		}
		if slices.ContainsFunc(out, func(q event.PlanPermission) bool { return q.Rule == rule }) {
			continue
		}
		out = append(out, event.PlanPermission{Rule: rule, Reason: reason, Outside: reach.Outside, Why: reach.Why})
	}
	return out, nil
}

// printable says s has no control characters (so it cannot redraw a
// terminal or forge another line of a dialog).
func printable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' || r == '\u202e' || r == '\u202d' {
			return false
		}
	}
	return utf8.ValidString(s)
}

// PickGrants returns the rules an approval grants: with grant nil, every
// permission the plan asked for that stays inside the project; otherwise
// those of grant the plan asked for (a host may grant a subset, including
// rules that reach outside, by naming them). Nothing the plan did not ask
// for is ever granted this way.
func PickGrants(perms []event.PlanPermission, grant []string) []string {
	var out []string
	for _, p := range perms {
		if grant == nil && !p.Outside || grant != nil && slices.Contains(grant, p.Rule) {
			out = append(out, p.Rule)
		}
	}
	return out
}

// CheckGrant returns nil when every rule of grant is one the plan asked
// for, and otherwise an error naming the first that is not.
func CheckGrant(perms []event.PlanPermission, grant []string) error {
	for _, g := range grant {
		if !slices.ContainsFunc(perms, func(p event.PlanPermission) bool { return p.Rule == g }) {
			return fmt.Errorf("grant: the plan did not ask for %q", g)
		}
	}
	return nil
}

// Question is the approval question for plan: its options, the
// permissions it asks for, the models to choose from and what changed
// since the user last sent it back.
func Question(plan *planmode.Session, impl Implementer, text string, perms []event.PlanPermission) permission.Question {
	q := permission.Question{Kind: permission.AskPlanExit, Plan: text, PlanFile: plan.PlanFile(""), Options: plan.Options(), Permissions: perms}
	q.PreviousPlan, q.ChangedLines = plan.Revision(text)
	q.Stale = plan.StaleFiles()
	if impl != nil {
		q.Models = impl.Models()
	}
	return q
}
