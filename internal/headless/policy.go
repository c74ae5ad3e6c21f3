package headless

import (
	"context"
	"fmt"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
)

// Plan approval policies for runs without a control channel.
const (
	PolicyPending     = "pending"
	PolicyApprove     = "approve"
	PolicyAcceptEdits = "accept-edits"
	PolicyManual      = "manual"
	PolicyReject      = "reject"
)

// ParsePolicy checks a --plan-approval value.
func ParsePolicy(s string) (string, error) {
	switch s {
	case "", PolicyPending:
		return PolicyPending, nil
	case PolicyApprove, PolicyAcceptEdits, PolicyManual, PolicyReject:
		return s, nil
	}
	return "", fmt.Errorf("unknown --plan-approval %q (want pending, approve, accept-edits, manual or reject)", s)
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
	case PolicyApprove:
		return permission.Answer{Option: planmode.OptionApprove}, nil
	case PolicyAcceptEdits:
		return permission.Answer{Option: planmode.OptionAcceptEdits}, nil
	case PolicyManual:
		return permission.Answer{Option: planmode.OptionManual}, nil
	case PolicyReject:
		return permission.Answer{Option: planmode.OptionReject, Feedback: "The plan was rejected automatically (--plan-approval reject)."}, nil
	}
	return permission.Answer{}, planmode.ErrApprovalPending
}
