package planmode

import "fmt"

// LeadPending is what the asker of a teammate that must plan first
// returns for a plan approval: the plan went to the team's lead as
// request RequestID, and the answer will come through the teammate's
// inbox. It counts as ErrApprovalPending: the turn ends with the plan
// waiting, and plan mode stays on until the lead answers.
type LeadPending struct {
	Lead      string
	RequestID string
}

func (e *LeadPending) Error() string {
	return fmt.Sprintf("the plan was sent to %s for approval (request %s)", e.Lead, e.RequestID)
}

// Is makes a LeadPending an ErrApprovalPending.
func (e *LeadPending) Is(target error) bool { return target == ErrApprovalPending }

// LeadPendingResult tells a teammate that its plan went to the lead and
// that it must wait.
func LeadPendingResult(path string, p *LeadPending) string {
	return fmt.Sprintf(`Your plan was sent to the team lead (%s) for approval.

Plan file: %s
Request ID: %s

Stop here and wait: the lead's answer arrives in your inbox as your next message. Plan mode stays on until then, so nothing but the plan file may change. If the plan is approved, implement it; if it is rejected, revise the plan file as the feedback says and call ExitPlanMode again.`, p.Lead, path, p.RequestID)
}
