package acp

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ponder-agent/ponder/event"
)

// The option ids of a permission request for one call.
const (
	optAllow       = "allow"
	optAllowAlways = "allow_always"
	optReject      = "reject"
)

// rejectFeedback is what the model is told when the editor sends a plan
// back: a permission request carries no text, so the user's next prompt
// is the feedback.
const rejectFeedback = "The user sent the plan back from their editor, where a rejection carries no comments. " +
	"First ask what to change: end your turn with that question; their next message is the feedback."

// ask puts a question to the editor as session/request_permission and
// gives the session the answer. An editor that cancels, fails or picks
// an option that was not offered answers nothing: the question is
// dismissed, which the session takes as no. ctx ends when the question
// closes on the session's side (the turn was cancelled).
func (ss *session) ask(ctx context.Context, q event.Question) {
	defer func() {
		ss.mu.Lock()
		cancel := ss.asks[q.ID]
		delete(ss.asks, q.ID)
		ss.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	}()
	var (
		ans event.Answer
		ok  bool
	)
	switch q.Kind {
	case event.AskToolUse:
		ans, ok = ss.askToolUse(ctx, q)
	case event.AskEnterPlan:
		ans, ok = ss.askEnterPlan(ctx, q)
	case event.AskPlanExit:
		ans, ok = ss.askPlanExit(ctx, q)
	case event.AskUser:
		ans, ok = ss.askUser(ctx, q)
	}
	if !ok || !ss.app.Answer(q.ID, ans) {
		ss.app.Dismiss(q.ID)
	}
}

// request sends one permission request and returns the option picked,
// or false when none was (cancelled, an error, or an id not offered).
func (ss *session) request(ctx context.Context, call sdk.ToolCallUpdate, opts []sdk.PermissionOption) (string, bool) {
	resp, err := ss.srv.conn.RequestPermission(ctx, sdk.RequestPermissionRequest{SessionId: sdk.SessionId(ss.id), ToolCall: call, Options: opts})
	if err != nil {
		if ctx.Err() == nil {
			ss.srv.logf("session %s: permission request: %v", ss.id, err)
		}
		return "", false
	}
	sel := resp.Outcome.Selected
	if sel == nil {
		return "", false
	}
	for _, o := range opts {
		if o.OptionId == sel.OptionId {
			return string(sel.OptionId), true
		}
	}
	ss.srv.logf("session %s: the editor picked option %q, which was not offered; taken as no", ss.id, sel.OptionId)
	return "", false
}

// callFor is the tool call a question is about, announced first when
// the editor has not seen it (a subagent's call, a plan asked again
// after a load).
func (ss *session) callFor(q event.Question, name string, input []byte) toolCall {
	id := q.ToolUseID
	if id == "" {
		id = "question-" + q.ID
	}
	if c, ok := ss.call(id); ok {
		return c
	}
	c := describe(ss.app.Dir(), id, name, input)
	if q.AgentID != "" {
		c.title = fmt.Sprintf("%s (agent %s)", c.title, q.AgentID)
	}
	ss.announce(c, sdk.ToolCallStatusPending)
	return c
}

func option(id, name string, kind sdk.PermissionOptionKind) sdk.PermissionOption {
	return sdk.PermissionOption{OptionId: sdk.PermissionOptionId(id), Name: name, Kind: kind}
}

// askToolUse asks whether a call may run: allow once, always (when the
// session has a rule to suggest), or reject.
func (ss *session) askToolUse(ctx context.Context, q event.Question) (event.Answer, bool) {
	c := ss.callFor(q, q.Tool, q.Input)
	opts := []sdk.PermissionOption{option(optAllow, "Allow once", sdk.PermissionOptionKindAllowOnce)}
	if q.Suggest != "" {
		opts = append(opts, option(optAllowAlways, "Always allow "+q.Suggest, sdk.PermissionOptionKindAllowAlways))
	}
	opts = append(opts, option(optReject, "Reject", sdk.PermissionOptionKindRejectOnce))
	pc := c.permissionCall()
	if q.Reason != "" {
		pc.Content = append(append([]sdk.ToolCallContent(nil), pc.Content...), textContent(q.Reason)...)
	}
	picked, ok := ss.request(ctx, pc, opts)
	if !ok {
		return event.Answer{}, false
	}
	return event.Answer{Allow: picked != optReject, Always: picked == optAllowAlways}, true
}

// askEnterPlan asks whether the model may switch to plan mode.
func (ss *session) askEnterPlan(ctx context.Context, q event.Question) (event.Answer, bool) {
	c := ss.callFor(q, "EnterPlanMode", []byte("{}"))
	pc := c.permissionCall()
	pc.Content = textContent("The model asks to switch to plan mode: it explores read-only and writes a plan, and nothing else changes until you approve the plan.")
	picked, ok := ss.request(ctx, pc, []sdk.PermissionOption{
		option(optAllow, "Yes, enter plan mode", sdk.PermissionOptionKindAllowOnce),
		option(optReject, "No, keep going", sdk.PermissionOptionKindRejectOnce),
	})
	if !ok {
		return event.Answer{}, false
	}
	return event.Answer{Allow: picked == optAllow}, true
}

// approvalKind is how an editor should show each plan approval option.
func approvalKind(id string) sdk.PermissionOptionKind {
	switch id {
	case event.OptionAcceptEdits, event.OptionBypass:
		return sdk.PermissionOptionKindAllowAlways
	case event.OptionReject:
		return sdk.PermissionOptionKindRejectOnce
	}
	return sdk.PermissionOptionKindAllowOnce
}

// askPlanExit presents the plan for approval: the request's call carries
// the plan as markdown and the plan file as its location, and its options
// are the session's approval options, by their ids. Sending the plan back
// keeps plan mode; the user's next prompt is the feedback.
func (ss *session) askPlanExit(ctx context.Context, q event.Question) (event.Answer, bool) {
	c := ss.callFor(q, "ExitPlanMode", []byte("{}"))
	pc := c.permissionCall()
	pc.Title = sdk.Ptr("Approve the plan?")
	pc.Content = textContent(q.Plan)
	if q.PlanFile != "" {
		pc.Locations = []sdk.ToolCallLocation{{Path: q.PlanFile}}
	}
	pc.Meta = map[string]any{"ponder": map[string]any{"event": "plan_exit_requested", "plan_file": q.PlanFile, "plan": q.Plan}}
	opts := make([]sdk.PermissionOption, 0, len(q.Options))
	for _, o := range q.Options {
		opts = append(opts, option(o.ID, o.Label, approvalKind(o.ID)))
	}
	picked, ok := ss.request(ctx, pc, opts)
	if !ok {
		return event.Answer{}, false
	}
	if picked == event.OptionReject {
		return event.Answer{Option: event.OptionReject, Feedback: rejectFeedback}, true
	}
	return event.Answer{Option: picked}, true
}

// askUser relays the model's multiple-choice questions, one permission
// request each, their choices as options; skipping one answers none.
// Several choices of a multi-select question cannot be picked this way,
// only one.
func (ss *session) askUser(ctx context.Context, q event.Question) (event.Answer, bool) {
	c := ss.callFor(q, "AskUserQuestion", []byte("{}"))
	answers := map[string]string{}
	for _, uq := range q.Questions {
		pc := c.permissionCall()
		title := uq.Question
		if uq.Header != "" {
			title = uq.Header + ": " + uq.Question
		}
		pc.Title = sdk.Ptr(title)
		var b strings.Builder
		b.WriteString(uq.Question)
		for _, o := range uq.Options {
			fmt.Fprintf(&b, "\n- **%s**: %s", o.Label, o.Description)
		}
		pc.Content = textContent(b.String())
		opts := make([]sdk.PermissionOption, 0, len(uq.Options)+1)
		for i, o := range uq.Options {
			opts = append(opts, option(strconv.Itoa(i), o.Label, sdk.PermissionOptionKindAllowOnce))
		}
		opts = append(opts, option(optReject, "Skip the question", sdk.PermissionOptionKindRejectOnce))
		picked, ok := ss.request(ctx, pc, opts)
		if !ok || picked == optReject {
			return event.Answer{}, false
		}
		i, _ := strconv.Atoi(picked)
		answers[uq.Question] = uq.Options[i].Label
	}
	return event.Answer{Answers: answers}, true
}
