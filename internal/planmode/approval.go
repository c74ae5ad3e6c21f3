package planmode

import (
	"errors"
	"fmt"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/permission"
)

// The ways to answer a plan approval.
const (
	// OptionAcceptEdits approves and lets edits through without asking.
	OptionAcceptEdits = "accept-edits"
	// OptionManual approves and asks before each edit.
	OptionManual = "manual"
	// OptionClearContext approves, clears the conversation and starts
	// implementing from the plan alone.
	OptionClearContext = "clear-context"
	// OptionBypass approves and bypasses permissions (only when allowed
	// at start).
	OptionBypass = "bypass"
	// OptionApprove approves and returns to the mode before plan mode.
	OptionApprove = "approve"
	// OptionReject keeps planning, with feedback.
	OptionReject = "reject"
)

// Options lists the answers offered for a plan approval, in display order.
func (s *Session) Options() []event.Option {
	opts := []event.Option{
		{ID: OptionAcceptEdits, Label: "Yes, and auto-accept edits"},
		{ID: OptionManual, Label: "Yes, and approve each edit"},
		{ID: OptionClearContext, Label: "Yes, clear the conversation and start from the plan"},
	}
	if s.cfg.BypassAllowed {
		opts = append(opts, event.Option{ID: OptionBypass, Label: "Yes, and bypass permissions"})
	}
	return append(opts, event.Option{ID: OptionReject, Label: "No, keep planning"})
}

// Approval is the outcome of an approved plan.
type Approval struct {
	Option   string
	Mode     permission.Mode
	Plan     string
	PlanFile string
	Edited   bool
	// ClearContext asks the caller to clear the conversation and start
	// over from Implementation().
	ClearContext bool
}

// Approve leaves plan mode as the chosen option says (X5): accept-edits →
// acceptEdits, manual → default, bypass → bypassPermissions, clear-context
// and approve → the mode before plan mode (default if unknown). An edited
// plan is written to the plan file first. It emits PlanApproved.
func (s *Session) Approve(option string, edited *string) (Approval, error) {
	if s.Mode() != permission.ModePlan {
		return Approval{}, fmt.Errorf("plan mode is not on")
	}
	pre := s.State().PrePlanMode
	if pre == "" || pre == permission.ModePlan || (pre == permission.ModeBypass && !s.cfg.BypassAllowed) {
		pre = permission.ModeDefault
	}
	var to permission.Mode
	switch option {
	case OptionAcceptEdits:
		to = permission.ModeAcceptEdits
	case OptionManual:
		to = permission.ModeDefault
	case OptionBypass:
		if !s.cfg.BypassAllowed {
			return Approval{}, fmt.Errorf("bypassing permissions was not allowed when this session started")
		}
		to = permission.ModeBypass
	case OptionClearContext, OptionApprove:
		to = pre
	default:
		return Approval{}, fmt.Errorf("unknown approval option %q (want %s, %s, %s, %s or %s)", option,
			OptionApprove, OptionAcceptEdits, OptionManual, OptionClearContext, OptionBypass)
	}
	path := s.PlanFile("")
	if edited != nil {
		if err := s.WritePlan("", *edited); err != nil {
			return Approval{}, fmt.Errorf("saving the edited plan to %s: %w", path, err)
		}
	}
	plan, _ := s.ReadPlan("")
	s.SetMode(to, ViaApproval)
	a := Approval{Option: option, Mode: to, Plan: plan, PlanFile: path, Edited: edited != nil, ClearContext: option == OptionClearContext}
	s.emitEvent(event.PlanApproved{Option: option, Mode: string(to), PlanFile: path, Edited: a.Edited})
	if a.ClearContext {
		s.emitEvent(event.PlanImplement{Plan: plan, PlanFile: path})
	}
	return a, nil
}

// Reject records that the plan was sent back. Plan mode stays on and so do
// all its limits. interrupted marks a request nobody answered. An edited
// plan that came with the rejection is saved.
func (s *Session) Reject(feedback string, edited *string, interrupted bool) error {
	path := s.PlanFile("")
	if edited != nil {
		if err := s.WritePlan("", *edited); err != nil {
			return fmt.Errorf("saving the edited plan to %s: %w", path, err)
		}
	}
	s.emitEvent(event.PlanRejected{Feedback: feedback, PlanFile: path, Interrupted: interrupted})
	return nil
}

// RequestExit announces that the model asked for approval of its plan.
func (s *Session) RequestExit(agentID, plan string) {
	s.emitEvent(event.PlanExitRequested{AgentID: agentID, Plan: plan, PlanFile: s.PlanFile(agentID), Options: s.Options()})
}

func (s *Session) emitEvent(e event.Event) {
	s.mu.Lock()
	emit := s.emit
	s.mu.Unlock()
	emit(e)
}

// PendingExit is the data ExitPlanMode hands the agent loop when it ends a
// turn with the plan still awaiting approval.
type PendingExit struct {
	Plan     string
	PlanFile string
}

// ErrApprovalPending is what an Asker returns for a plan approval it
// defers: the run ends with the plan waiting, and a later run answers it.
var ErrApprovalPending = errors.New("the plan approval is deferred")
