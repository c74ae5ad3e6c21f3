package sessiontool

import (
	"context"
	_ "embed"
	"encoding/json"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/tool"
)

//go:embed enter.md
var enterDescription string

// EnterPlanMode lets the model ask to switch to plan mode.
type EnterPlanMode struct {
	tool.Meta
	Plan *planmode.Session
	Ask  permission.Asker
}

// NewEnterPlanMode returns the tool. Its input is an empty object; it may
// run beside other calls, as it only changes the session's mode.
func NewEnterPlanMode(plan *planmode.Session, ask permission.Asker) EnterPlanMode {
	return EnterPlanMode{Meta: noInput("EnterPlanMode", enterDescription, true), Plan: plan, Ask: ask}
}

// Prepare rejects any input field.
func (t EnterPlanMode) Prepare(env *tool.Env, input json.RawMessage) (tool.Call, error) {
	if _, err := tool.Decode[struct{}](input); err != nil {
		return nil, err
	}
	return call{run: func(ctx context.Context) tool.Result { return t.run(ctx, env) }}, nil
}

func (t EnterPlanMode) run(ctx context.Context, env *tool.Env) tool.Result {
	if t.Plan.Mode() == permission.ModePlan {
		return tool.Result{Content: t.Plan.AlreadyInPlanMode()}
	}
	ans, err := t.Ask.Ask(ctx, permission.Question{Kind: permission.AskEnterPlan, AgentID: env.AgentID, ToolUseID: tool.CallID(ctx)})
	if err != nil {
		return tool.Errorf("Nobody confirmed the switch to plan mode, so the mode did not change. Continue in the current mode.")
	}
	if !ans.Allow {
		return tool.Result{Content: planmode.EnterDeclinedResult(ans.Message), Summary: "declined"}
	}
	t.Plan.SetMode(permission.ModePlan, planmode.ViaTool)
	return tool.Result{Content: t.Plan.EnteredResult(), Summary: "plan mode on"}
}
