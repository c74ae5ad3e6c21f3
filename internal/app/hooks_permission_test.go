package app

import (
	"encoding/json"
	"testing"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/hooks"
	"github.com/ponder-agent/ponder/internal/permission"
)

func planQuestion(options ...string) permission.Question {
	q := permission.Question{Kind: permission.AskPlanExit, Plan: "# P\n"}
	for _, o := range options {
		q.Options = append(q.Options, event.Option{ID: o})
	}
	return q
}

// A hook's allow of a plan picks the option its mode names when offered,
// else a plain approval, never grants, and carries only a changed plan.
func TestHookAnswerPlan(t *testing.T) {
	q := planQuestion(event.OptionAcceptEdits, event.OptionManual, event.OptionReject)
	ans, ok := hookAnswer(q, hooks.Outcome{Decision: event.HookAllow, Mode: event.ModeAcceptEdits, UpdatedInput: json.RawMessage(`{"plan":"# Q\n"}`)})
	if !ok || ans.Option != event.OptionAcceptEdits || ans.EditedPlan == nil || *ans.EditedPlan != "# Q\n" || ans.Grant == nil || len(ans.Grant) != 0 {
		t.Errorf("allow with acceptEdits: %+v", ans)
	}
	// bypass is not offered: the plain approval stands in.
	ans, _ = hookAnswer(q, hooks.Outcome{Decision: event.HookAllow, Mode: event.ModeBypass, UpdatedInput: json.RawMessage(`{"plan":"# P\n"}`)})
	if ans.Option != event.OptionAcceptEdits && ans.Option != event.OptionManual || ans.EditedPlan != nil {
		t.Errorf("allow with an unoffered mode: %+v", ans)
	}
	if ans.Option == event.OptionBypass {
		t.Error("a hook picked bypass though it was not offered")
	}
	ans, _ = hookAnswer(q, hooks.Outcome{Decision: event.HookDeny, Reason: "split it"})
	if ans.Option != event.OptionReject || ans.Feedback != "split it" {
		t.Errorf("deny: %+v", ans)
	}
	if _, ok := hookAnswer(q, hooks.Outcome{}); ok {
		t.Error("no decision answered the question")
	}
	if _, ok := hookAnswer(planQuestion(event.OptionReject), hooks.Outcome{Decision: event.HookAllow}); ok {
		t.Error("an allow answered a plan question that offers no approval")
	}
}

// A hook's allow of a tool call is a yes, with a changed input only when
// it changed; a deny carries its message.
func TestHookAnswerToolUse(t *testing.T) {
	q := permission.Question{Kind: permission.AskToolUse, Tool: "Write", Input: json.RawMessage(`{"file_path":"a"}`)}
	ans, ok := hookAnswer(q, hooks.Outcome{Decision: event.HookAllow, UpdatedInput: json.RawMessage(`{"file_path":"a"}`)})
	if !ok || !ans.Allow || ans.UpdatedInput != nil || ans.Always {
		t.Errorf("allow: %+v", ans)
	}
	ans, _ = hookAnswer(q, hooks.Outcome{Decision: event.HookAllow, UpdatedInput: json.RawMessage(`{"file_path":"b"}`)})
	if string(ans.UpdatedInput) != `{"file_path":"b"}` {
		t.Errorf("allow with a new input: %+v", ans)
	}
	ans, _ = hookAnswer(q, hooks.Outcome{Decision: event.HookDeny})
	if ans.Allow || ans.Message == "" {
		t.Errorf("deny: %+v", ans)
	}
}

// Every plan event is a transition; a mode change is one only when it
// leaves plan mode without an approval.
func TestTransitionInput(t *testing.T) {
	cases := []struct {
		e    event.Event
		want string
	}{
		{event.PlanModeEntered{Via: "tui"}, event.TransitionEntered},
		{event.PlanModeEntered{Via: "slash"}, event.TransitionEntered},
		{event.PlanExitRequested{Plan: "p"}, event.TransitionExitRequested},
		{event.PlanApproved{Option: "manual"}, event.TransitionApproved},
		{event.PlanRejected{Feedback: "f"}, event.TransitionRejected},
		{event.ModeChanged{From: "plan", To: "default", Via: "tui"}, event.TransitionExited},
		{event.ModeChanged{From: "plan", To: "acceptEdits", Via: "approval"}, ""},
		{event.ModeChanged{From: "default", To: "plan", Via: "tui"}, ""},
		{event.Notice{Text: "x"}, ""},
	}
	for _, c := range cases {
		in, ok := transitionInput(c.e)
		if got := map[bool]string{true: in.Transition}[ok]; got != c.want {
			t.Errorf("%T %+v: transition %q, want %q", c.e, c.e, got, c.want)
		}
	}
	if in, _ := transitionInput(event.PlanModeEntered{Via: "slash"}); in.Via != "slash" {
		t.Errorf("via %q", in.Via)
	}
}
