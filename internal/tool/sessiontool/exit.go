package sessiontool

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"strings"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/tool"
)

//go:embed exit.md
var exitDescription string

// ExitPlanMode presents the plan file for approval and, once approved,
// leaves plan mode.
type ExitPlanMode struct {
	tool.Meta
	Plan *planmode.Session
	Ask  permission.Asker
	// Impl judges the permissions a plan asks for and applies what an
	// approval grants; nil refuses plans that ask for permissions.
	Impl Implementer
}

// NewExitPlanMode returns the tool. Its input may list the permissions
// the implementation will need; it runs alone, as an approval changes the
// mode other calls run in.
func NewExitPlanMode(plan *planmode.Session, ask permission.Asker, impl Implementer) ExitPlanMode {
	return ExitPlanMode{Meta: tool.Meta{ToolName: "ExitPlanMode", ToolKind: permission.KindNone, Doc: exitDescription,
		InputSchema: json.RawMessage(exitSchema)}, Plan: plan, Ask: ask, Impl: impl}
}

// Prepare reads the permissions the plan asks for, and the plan itself
// when a model taught the older form of the tool sends it (it then
// becomes the plan file's content; the schema offers no such field, and
// the plan file stays the way to write a plan); any other field is an
// error. Each rule is judged now, so a rule that does not parse is the
// model's to fix before anyone is asked.
func (t ExitPlanMode) Prepare(env *tool.Env, input json.RawMessage) (tool.Call, error) {
	in, err := tool.Decode[exitInput](input)
	if err != nil {
		return nil, err
	}
	perms, err := t.judge(in.Permissions)
	if err != nil {
		return nil, err
	}
	return call{run: func(ctx context.Context) tool.Result { return t.run(ctx, env, in.Plan, perms) }}, nil
}

func (t ExitPlanMode) run(ctx context.Context, env *tool.Env, given *string, perms []event.PlanPermission) tool.Result {
	if env.AgentID != "" {
		return tool.Result{Content: planmode.SubagentExitResult, Summary: "done"}
	}
	if t.Plan.Mode() != permission.ModePlan {
		return tool.Errorf("%s", planmode.NotInPlanModeResult)
	}
	if given != nil && strings.TrimSpace(*given) != "" {
		// Only the plan file, which plan mode lets through.
		if err := t.Plan.WritePlan("", *given); err != nil {
			return tool.Errorf("The plan could not be saved to the plan file: %v", err)
		}
	}
	path := t.Plan.PlanFile("")
	plan, ok := t.Plan.ReadPlan("")
	if !ok || strings.TrimSpace(plan) == "" {
		return tool.Errorf("%s", planmode.NoPlanResult(path))
	}
	t.Plan.RequestExit("", plan, perms)
	q := Question(t.Plan, t.Impl, plan, perms)
	q.ToolUseID = tool.CallID(ctx)
	ans, err := t.Ask.Ask(ctx, q)
	switch {
	case errors.Is(err, planmode.ErrApprovalPending):
		content := planmode.PendingResult
		var lead *planmode.LeadPending
		if errors.As(err, &lead) {
			content = planmode.LeadPendingResult(path, lead)
		}
		return tool.Result{Content: content, Stop: tool.StopPending, Summary: "awaiting approval",
			Pending: &tool.PendingPlan{Plan: plan, PlanFile: path, Permissions: perms}}
	case err != nil:
		_ = t.Plan.Reject("", nil, true)
		return tool.Result{Content: planmode.InterruptedResult, IsError: true, Summary: "not approved"}
	}
	return Answer(t.Plan, t.Impl, perms, ans)
}

// Answer applies an answer to a plan approval and returns the result the
// model gets. The headless resume path uses it too, so an approval given
// later has exactly the effect of one given at once. An approval grants
// the permissions the answer picks (see PickGrants) and switches to the
// model it names, once the mode has changed; a rejection, or comments on
// lines, keep plan mode on.
func Answer(plan *planmode.Session, impl Implementer, perms []event.PlanPermission, ans permission.Answer) tool.Result {
	option := ans.Option
	if option == "" && (ans.Feedback != "" || len(ans.Annotations) > 0) {
		option = planmode.OptionReject
	}
	if option == planmode.OptionReplan {
		option, ans.Feedback = planmode.OptionReject, plan.ReplanFeedback(ans.Feedback)
	}
	if option == planmode.OptionReject {
		text, err := plan.SendBack(planmode.Feedback{Text: ans.Feedback, Edited: ans.EditedPlan, Annotations: ans.Annotations})
		if err != nil {
			return tool.Errorf("The plan was not approved, and saving the edited plan failed: %v", err)
		}
		return tool.Result{Content: text, IsError: true, Summary: "sent back"}
	}
	grants := PickGrants(perms, ans.Grant)
	if impl == nil {
		grants = nil
	}
	model := strings.TrimSpace(ans.Model)
	if model != "" && (impl == nil || impl.CheckModel(model) != nil) {
		model = ""
	}
	if len(ans.Annotations) > 0 && !planmode.CarriesNotes(option) {
		return tool.Errorf("The plan was not approved: the option %q cannot carry the user's comments. Plan mode is still on.", option)
	}
	a, err := plan.ApproveWith(option, ans.EditedPlan, model, grants)
	if err != nil {
		_ = plan.Reject(err.Error(), nil, false)
		return tool.Errorf("The plan was not approved: %v. Plan mode is still on.", err)
	}
	a.Notes = ans.Annotations
	if impl != nil {
		impl.Implement(model, grants)
		if k, ok := impl.(NoteKeeper); ok && len(a.Notes) > 0 {
			k.KeepNotes(a.Notes)
		}
	}
	if a.ClearContext {
		return tool.Result{Content: planmode.ClearedResult, Stop: tool.StopClearContext, Summary: "approved"}
	}
	if a.Stop {
		return tool.Result{Content: planmode.ApprovedStopResult, Stop: tool.StopApproved, Summary: "approved: the user starts it"}
	}
	return tool.Result{Content: planmode.ApprovedResult(a), Summary: "approved: " + modeWords(a.Mode)}
}

// modeWords is a mode as the summary line of an approval says it.
func modeWords(m permission.Mode) string {
	switch m {
	case permission.ModeAcceptEdits:
		return "edits accepted"
	case permission.ModeDefault:
		return "each edit asks"
	case permission.ModeBypass:
		return "permissions bypassed"
	}
	return m.Title()
}
