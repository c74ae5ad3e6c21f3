package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
)

// PlanPending is the plan approval policy that leaves a plan waiting: the
// run ends, and a later one answers (--approve-plan, --reject-plan).
const PlanPending = "pending"

// CheckPlanApproval returns nil when policy may answer the plan approvals
// of a run nobody attends (--plan-approval): PlanPending, or one of the
// approval options.
func CheckPlanApproval(policy string) error {
	if policy == "" || policy == PlanPending {
		return nil
	}
	if _, ok := planmode.LookupOption(policy); ok {
		return nil
	}
	return fmt.Errorf("unknown --plan-approval %q (want %s, %s)", policy, PlanPending, strings.Join(planmode.OptionIDs(false), ", "))
}

// CheckApprovalOption returns nil when option approves a plan
// (--approve-plan). Whether this session allows it is checked when it is
// given (AnswerPending).
func CheckApprovalOption(option string) error {
	if o, ok := planmode.LookupOption(option); ok && !o.Reject {
		return nil
	}
	return fmt.Errorf("unknown --approve-plan option %q (want %s)", option, strings.Join(planmode.OptionIDs(true), ", "))
}

// policyAsker answers for a run nobody attends: plan approvals as the
// policy says, everything else with ErrNoAnswerer, so a call that needs a
// yes is refused and the model is told why. Nothing is approved silently.
type policyAsker struct {
	policy string
}

func (p policyAsker) Ask(_ context.Context, q permission.Question) (permission.Answer, error) {
	if q.Kind != permission.AskPlanExit {
		return permission.Answer{}, permission.ErrNoAnswerer
	}
	switch p.policy {
	case "", PlanPending:
		return permission.Answer{}, planmode.ErrApprovalPending
	case event.OptionReject:
		return permission.Answer{Option: event.OptionReject, Feedback: "The plan was rejected automatically (--plan-approval reject)."}, nil
	}
	return permission.Answer{Option: p.policy}, nil
}

// dontAsk answers no question about a tool call: a call that would ask is
// refused, as if nobody could answer. Plan approvals, entering plan mode
// and the model's questions still reach the asker it wraps.
type dontAsk struct {
	next permission.Asker
}

func (d dontAsk) Ask(ctx context.Context, q permission.Question) (permission.Answer, error) {
	if q.Kind == permission.AskToolUse {
		return permission.Answer{}, permission.ErrNoAnswerer
	}
	return d.next.Ask(ctx, q)
}
