package app

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/hooks"
	"github.com/ponder-agent/ponder/internal/permission"
)

// hookAsker runs the PermissionRequest hooks before a question reaches
// whoever answers the session's questions. A hook may answer in the
// user's place (allow, deny) or pass, and then the question is asked as
// usual.
//
// A hook answers only what a person could: the engine asks about a call
// only once its hard limits (plan mode, deny rules, read-only agents) let
// it through, and an allowed call with a replaced input is judged again.
// Plan mode is lifted by nothing but an answer to the plan's own
// approval, which goes through the same approval a person's does.
type hookAsker struct {
	a    *App
	next permission.Asker
}

// Ask asks the hooks, then, if none decided, next.
func (h hookAsker) Ask(ctx context.Context, q permission.Question) (permission.Answer, error) {
	if !h.a.hooks.Has(event.HookPermissionRequest) || q.Kind == permission.AskUser {
		return h.next.Ask(ctx, q)
	}
	tool, input := requestCall(q)
	out := h.a.hooks.Run(ctx, event.HookInput{Event: event.HookPermissionRequest, AgentID: q.AgentID,
		ToolName: tool, ToolInput: input, ToolUseID: q.ToolUseID})
	h.a.hookNotices(out)
	if ans, ok := hookAnswer(q, out); ok {
		return ans, nil
	}
	return h.next.Ask(ctx, q)
}

// requestCall is the tool call a question is about, as a hook is told:
// the tool's name and its input.
func requestCall(q permission.Question) (string, json.RawMessage) {
	switch q.Kind {
	case permission.AskPlanExit:
		in, _ := json.Marshal(map[string]string{"plan": q.Plan, "planFilePath": q.PlanFile})
		return "ExitPlanMode", in
	case permission.AskEnterPlan:
		return "EnterPlanMode", json.RawMessage(`{}`)
	}
	in := q.Input
	if len(in) == 0 {
		in = json.RawMessage(`{}`)
	}
	return q.Tool, in
}

// hookAnswer turns what the hooks decided into the answer to q; false
// when they passed.
func hookAnswer(q permission.Question, out hooks.Outcome) (permission.Answer, bool) {
	reason := strings.TrimSpace(out.Reason)
	switch out.Decision {
	case event.HookDeny, event.HookBlock:
		if reason == "" {
			reason = "A PermissionRequest hook refused this."
		}
		if q.Kind == permission.AskPlanExit {
			return permission.Answer{Option: event.OptionReject, Feedback: reason}, true
		}
		return permission.Answer{Message: reason}, true
	case event.HookAllow:
		if q.Kind == permission.AskPlanExit {
			return planAllow(q, out)
		}
		ans := permission.Answer{Allow: true}
		if q.Kind == permission.AskToolUse && len(out.UpdatedInput) > 0 && !bytes.Equal(bytes.TrimSpace(out.UpdatedInput), bytes.TrimSpace(q.Input)) {
			ans.UpdatedInput = out.UpdatedInput
		}
		return ans, true
	}
	return permission.Answer{}, false
}

// planAllow approves a plan for a hook: with the option its mode picks
// (manual when it names none), the plan it edited, and no grants — the
// permissions a plan asks for are the user's to give.
func planAllow(q permission.Question, out hooks.Outcome) (permission.Answer, bool) {
	option := event.OptionManual
	switch out.Mode {
	case event.ModeAcceptEdits:
		option = event.OptionAcceptEdits
	case event.ModeBypass:
		option = event.OptionBypass
	}
	if !offered(q, option) {
		// A plan question that lacks it (a teammate's): the first
		// approval it offers, bypass only when asked for.
		option = ""
		for _, o := range q.Options {
			if o.ID != event.OptionReject && o.ID != event.OptionBypass {
				option = o.ID
				break
			}
		}
		if option == "" {
			return permission.Answer{}, false
		}
	}
	ans := permission.Answer{Option: option, Grant: []string{}}
	if len(out.UpdatedInput) > 0 {
		var in struct {
			Plan *string `json:"plan"`
		}
		if json.Unmarshal(out.UpdatedInput, &in) == nil && in.Plan != nil && strings.TrimSpace(*in.Plan) != "" && *in.Plan != q.Plan {
			ans.EditedPlan = in.Plan
		}
	}
	return ans, true
}

// offered reports whether q offers the option id.
func offered(q permission.Question, id string) bool {
	for _, o := range q.Options {
		if o.ID == id {
			return true
		}
	}
	return false
}
