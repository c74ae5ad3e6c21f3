package planmode

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/permission"
)

// The ways to answer a plan approval, by the ids of package event.
const (
	OptionAcceptEdits  = event.OptionAcceptEdits
	OptionManual       = event.OptionManual
	OptionClearContext = event.OptionClearContext
	OptionBypass       = event.OptionBypass
	OptionApprove      = event.OptionApprove
	OptionReject       = event.OptionReject
	OptionReplan       = event.OptionReplan
	OptionApproveStop  = event.OptionApproveStop
)

// ApprovalOption is one way to answer a plan approval, with what it does.
// approvalOptions is the one table of them: the dialogs, the control
// channel, the command line's flags and Approve all read it.
type ApprovalOption struct {
	ID string
	// Label is the option as a dialog shows it.
	Label string
	// Mode is the mode an approval leaves plan mode for; "" returns to
	// the mode before plan mode.
	Mode permission.Mode
	// ClearContext starts implementing in a fresh conversation.
	ClearContext bool
	// Stop approves without starting the implementation: the user
	// prompts next.
	Stop bool
	// Reject sends the plan back: plan mode goes on.
	Reject bool
	// Shown says dialogs offer it; a plain "approve", which names no
	// mode, is for hosts and flags.
	Shown bool
	// Teammate says a team's lead may answer a teammate's plan with it;
	// a lead never lifts a teammate into bypassPermissions.
	Teammate bool
	// NotesLabel is the option as a dialog shows it while the user has
	// comments on lines of the plan, which then go with it: with an
	// approval to the implementing model as notes, with a rejection as
	// what to change. "" says the option cannot carry them.
	NotesLabel string
	// WhenStale says dialogs offer it only when files the plan names
	// changed since it was written.
	WhenStale bool
}

var approvalOptions = []ApprovalOption{
	{ID: OptionAcceptEdits, Label: "Yes, and auto-accept edits", Mode: permission.ModeAcceptEdits, Shown: true, Teammate: true,
		NotesLabel: "Yes, with my comments as notes, and auto-accept edits"},
	{ID: OptionManual, Label: "Yes, and approve each edit", Mode: permission.ModeDefault, Shown: true, Teammate: true,
		NotesLabel: "Yes, with my comments as notes, and approve each edit"},
	{ID: OptionClearContext, Label: "Yes, clear the conversation and start from the plan", ClearContext: true, Shown: true,
		NotesLabel: "Yes, clear the conversation and start from the plan and my comments"},
	{ID: OptionBypass, Label: "Yes, and bypass permissions", Mode: permission.ModeBypass, Shown: true,
		NotesLabel: "Yes, with my comments as notes, and bypass permissions"},
	{ID: OptionApproveStop, Label: "Yes, approve and stop here (auto-accept edits once I say go)", Mode: permission.ModeAcceptEdits, Stop: true,
		NotesLabel: "Yes, with my comments as notes, approve and stop here"},
	{ID: OptionApprove, Label: "Yes, and return to the mode before plan mode", Teammate: true,
		NotesLabel: "Yes, with my comments as notes, and return to the mode before plan mode"},
	{ID: OptionReject, Label: "No, keep planning", Reject: true, Shown: true,
		NotesLabel: "No, keep planning and send my comments"},
	{ID: OptionReplan, Label: "No, re-plan: files the plan names changed since it was written", Reject: true, Shown: true, WhenStale: true,
		NotesLabel: "No, re-plan and send my comments"},
}

// LookupOption finds an approval option by its id.
func LookupOption(id string) (ApprovalOption, bool) {
	for _, o := range approvalOptions {
		if o.ID == id {
			return o, true
		}
	}
	return ApprovalOption{}, false
}

// TeammateOption returns the option a lead's answer to a teammate picks
// by naming mode ("" for the teammate's mode before plan mode), when a
// lead may give it.
func TeammateOption(mode permission.Mode) (ApprovalOption, bool) {
	for _, o := range approvalOptions {
		if o.Teammate && o.Mode == mode {
			return o, true
		}
	}
	return ApprovalOption{}, false
}

// OptionIDs lists the ids of the approval options, only the approving
// ones when approving is set, for messages and flag help.
func OptionIDs(approving bool) []string {
	var out []string
	for _, o := range approvalOptions {
		if !approving || !o.Reject {
			out = append(out, o.ID)
		}
	}
	return out
}

// CarriesNotes reports whether the user's comments on lines of the plan
// may go with option (see ApprovalOption.NotesLabel).
func CarriesNotes(option string) bool {
	o, ok := LookupOption(option)
	return ok && o.NotesLabel != ""
}

// CheckOption returns nil when option answers a plan approval in this
// session, and otherwise an error that lists the options there are: an
// option that is no option, and the bypass option where this run does not
// allow bypassing, are refused.
func (s *Session) CheckOption(option string) error {
	o, ok := LookupOption(option)
	if !ok {
		return fmt.Errorf("unknown approval option %q (want %s)", option, strings.Join(OptionIDs(false), ", "))
	}
	if o.Mode != "" {
		return s.guard(o.Mode, ViaApproval)
	}
	return nil
}

// Options lists the answers a dialog offers for a plan approval, in
// display order: the bypass option only when this run allows bypassing.
func (s *Session) Options() []event.Option {
	var opts []event.Option
	stale := len(s.StaleFiles()) > 0
	for _, o := range approvalOptions {
		if o.WhenStale && !stale {
			continue
		}
		if o.Shown && (o.Mode == "" || s.guard(o.Mode, ViaApproval) == nil) {
			opts = append(opts, event.Option{ID: o.ID, Label: o.Label, WithNotes: o.NotesLabel})
		}
	}
	return opts
}

// Approval is the outcome of an approved plan.
type Approval struct {
	Option   string
	Mode     permission.Mode
	Plan     string
	PlanFile string
	Edited   bool
	// Model is the model chosen to implement the plan ("" keeps the
	// model); Granted are the rules granted for the implementation.
	Model   string
	Granted []string
	// ClearContext asks the caller to clear the conversation and start
	// over from Implementation().
	ClearContext bool
	// Notes are the user's comments on lines of the approved plan (as
	// the approval leaves it), for the implementing model.
	Notes []event.Annotation
	// Stop asks the caller to end the turn: the user starts the
	// implementation.
	Stop bool
}

// Approve leaves plan mode as the chosen option says (X5): accept-edits →
// acceptEdits, manual → default, bypass → bypassPermissions, clear-context
// and approve → the mode before plan mode (default when there is none, or
// when the transition's guard would not let it back in). The mode changes
// through SetMode, whose guard has the last word. An edited plan is
// written to the plan file first. It emits PlanApproved.
func (s *Session) Approve(option string, edited *string) (Approval, error) {
	return s.ApproveWith(option, edited, "", nil)
}

// ApproveWith is Approve, recording in the approval and its event the
// model chosen for the implementation and the rules granted for it, which
// the caller applies once the approval stands.
func (s *Session) ApproveWith(option string, edited *string, model string, granted []string) (Approval, error) {
	if s.Mode() != permission.ModePlan {
		return Approval{}, fmt.Errorf("plan mode is not on")
	}
	o, ok := LookupOption(option)
	if !ok || o.Reject {
		return Approval{}, fmt.Errorf("unknown approval option %q (want %s)", option, strings.Join(OptionIDs(true), ", "))
	}
	to := o.Mode
	if to == "" {
		to = s.State().PrePlanMode
		if to == "" || to == permission.ModePlan || s.guard(to, ViaApproval) != nil {
			to = permission.ModeDefault
		}
	}
	if err := s.guard(to, ViaApproval); err != nil {
		return Approval{}, err
	}
	path := s.PlanFile("")
	if edited != nil {
		if err := s.WritePlan("", *edited); err != nil {
			return Approval{}, fmt.Errorf("saving the edited plan to %s: %w", path, err)
		}
	}
	plan, _ := s.ReadPlan("")
	ch := s.SetMode(to, ViaApproval)
	if ch.Refused {
		return Approval{}, fmt.Errorf("the mode cannot change to %s", to)
	}
	// The ceiling may have limited the mode asked for.
	to = ch.To
	if to == permission.ModePlan {
		return Approval{}, fmt.Errorf("plan mode cannot be left: it is the freest mode allowed here")
	}
	s.mu.Lock()
	s.st.SentBack = ""
	s.carryLocked(option, path, plan)
	carried := *s.st.Carried
	s.changed()
	s.mu.Unlock()
	a := Approval{Option: option, Mode: to, Plan: plan, PlanFile: path, Edited: edited != nil, ClearContext: o.ClearContext, Stop: o.Stop,
		Model: model, Granted: granted}
	s.emitEvent(event.PlanApproved{Option: option, Mode: string(to), PlanFile: path, Edited: a.Edited, Model: model, Granted: granted,
		Title: carried.Title, Steps: carried.StepItems(), Files: carried.Files, Dirs: carried.Dirs})
	if a.ClearContext {
		s.emitEvent(event.PlanImplement{Plan: plan, PlanFile: path})
	}
	return a, nil
}

// RequestExit announces that the model asked for approval of its plan.
func (s *Session) RequestExit(agentID, plan string, perms []event.PlanPermission) {
	if agentID == "" {
		s.mu.Lock()
		s.recordProvenanceLocked(plan)
		s.changed()
		s.mu.Unlock()
	}
	s.emitEvent(event.PlanExitRequested{AgentID: agentID, Plan: plan, PlanFile: s.PlanFile(agentID), Options: s.Options(), Permissions: perms})
}

func (s *Session) emitEvent(e event.Event) {
	s.mu.Lock()
	emit := s.emit
	s.mu.Unlock()
	emit(e)
}

// ErrApprovalPending is what an Asker returns for a plan approval it
// defers: the run ends with the plan waiting, and a later run answers it.
var ErrApprovalPending = errors.New("the plan approval is deferred")
