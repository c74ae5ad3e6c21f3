package sessiontool

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"strings"

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
}

// NewExitPlanMode returns the tool. Its input is an empty object; it runs
// alone, as an approval changes the mode other calls run in.
func NewExitPlanMode(plan *planmode.Session, ask permission.Asker) ExitPlanMode {
	return ExitPlanMode{Meta: noInput("ExitPlanMode", exitDescription, false), Plan: plan, Ask: ask}
}

// exitInput is ExitPlanMode's input: nothing, or (from models taught the
// older form of the tool, which hosts of the Claude Agent SDK script) the
// plan itself, which then becomes the plan file's content. The schema
// offers no field; the plan file stays the way to write a plan.
type exitInput struct {
	Plan *string `json:"plan"`
}

// Prepare rejects any input field but plan.
func (t ExitPlanMode) Prepare(env *tool.Env, input json.RawMessage) (tool.Call, error) {
	in, err := tool.Decode[exitInput](input)
	if err != nil {
		return nil, err
	}
	return call{run: func(ctx context.Context) tool.Result { return t.run(ctx, env, in.Plan) }}, nil
}

func (t ExitPlanMode) run(ctx context.Context, env *tool.Env, given *string) tool.Result {
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
	t.Plan.RequestExit("", plan)
	ans, err := t.Ask.Ask(ctx, permission.Question{Kind: permission.AskPlanExit, ToolUseID: tool.CallID(ctx), Plan: plan, PlanFile: path, Options: t.Plan.Options()})
	switch {
	case errors.Is(err, planmode.ErrApprovalPending):
		return tool.Result{Content: planmode.PendingResult, Stop: tool.StopPending, Summary: "awaiting approval",
			Pending: &tool.PendingPlan{Plan: plan, PlanFile: path}}
	case err != nil:
		_ = t.Plan.Reject("", nil, true)
		return tool.Result{Content: planmode.InterruptedResult, IsError: true, Summary: "not approved"}
	}
	return Answer(t.Plan, ans)
}

// Answer applies an answer to a plan approval and returns the result the
// model gets. The headless resume path uses it too, so an approval given
// later has exactly the effect of one given at once.
func Answer(plan *planmode.Session, ans permission.Answer) tool.Result {
	option := ans.Option
	if option == "" && ans.Feedback != "" {
		option = planmode.OptionReject
	}
	if option == planmode.OptionReject {
		if err := plan.Reject(ans.Feedback, ans.EditedPlan, false); err != nil {
			return tool.Errorf("The plan was not approved, and saving the edited plan failed: %v", err)
		}
		return tool.Result{Content: planmode.RejectedResult(ans.Feedback, ans.EditedPlan != nil), IsError: true, Summary: "rejected"}
	}
	a, err := plan.Approve(option, ans.EditedPlan)
	if err != nil {
		_ = plan.Reject(err.Error(), nil, false)
		return tool.Errorf("The plan was not approved: %v. Plan mode is still on.", err)
	}
	if a.ClearContext {
		return tool.Result{Content: planmode.ClearedResult, Stop: tool.StopClearContext, Summary: "approved"}
	}
	return tool.Result{Content: planmode.ApprovedResult(a), Summary: "approved (" + string(a.Mode) + ")"}
}
