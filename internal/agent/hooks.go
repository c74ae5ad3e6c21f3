package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

// maxStopContinuations bounds how often Stop hooks may keep one turn
// going, so two hooks that disagree cannot loop for ever.
const maxStopContinuations = 8

// preToolUse runs the PreToolUse hooks of a call and returns their ruling
// for the permission engine, which weighs it with the rules.
func (a *Agent) preToolUse(ctx context.Context, use llm.Block) permission.HookRuling {
	if !a.cfg.Hooks.Has(event.HookPreToolUse) {
		return permission.HookRuling{}
	}
	out := a.cfg.Hooks.Run(ctx, event.HookInput{Event: event.HookPreToolUse, AgentID: a.cfg.ID, ToolName: use.Name, ToolInput: use.Input, ToolUseID: use.ID})
	a.hookNotices(out.Messages, out.Errors)
	r := permission.HookRuling{Reason: out.Reason}
	if out.Stop {
		// A hook that ends the turn refuses the call too, and the turn
		// ends once it is refused.
		r.Behavior, r.Reason = permission.Deny, orDefault(out.StopReason, orDefault(out.Reason, "a hook ended the turn"))
		a.interruptTurn()
		return r
	}
	switch out.Decision {
	case event.HookDeny, event.HookBlock:
		r.Behavior = permission.Deny
	case event.HookAsk:
		r.Behavior = permission.Ask
	case event.HookAllow:
		r.Behavior = permission.Allow
	}
	return r
}

// postToolUse runs the PostToolUse hooks of a call that ran (or the
// PostToolUseFailure hooks of one that failed); what they tell the model
// is added to the result.
func (a *Agent) postToolUse(ctx context.Context, use llm.Block, res tool.Result) tool.Result {
	ev := event.HookPostToolUse
	if res.IsError {
		ev = event.HookPostToolUseFailure
	}
	if !a.cfg.Hooks.Has(ev) {
		return res
	}
	out := a.cfg.Hooks.Run(ctx, event.HookInput{Event: ev, AgentID: a.cfg.ID, ToolName: use.Name, ToolInput: use.Input,
		ToolUseID: use.ID, ToolResponse: res.Content, ToolFailed: res.IsError})
	a.hookNotices(out.Messages, out.Errors)
	var notes []string
	if out.Decision == event.HookBlock || out.Decision == event.HookDeny {
		notes = append(notes, "A PostToolUse hook objected to this result: "+orDefault(out.Reason, "no reason given"))
	}
	if out.Context != "" {
		notes = append(notes, out.Context)
	}
	if out.Stop {
		a.interruptTurn()
	}
	if len(notes) > 0 {
		res.Content = strings.TrimRight(res.Content, "\n") + "\n\n<hook-feedback>\n" + strings.Join(notes, "\n") + "\n</hook-feedback>"
	}
	return res
}

// stopHook runs the Stop hooks when the main conversation's model would
// end its turn. It returns the text to send the model when a hook keeps
// the turn going, or "".
func (a *Agent) stopHook(ctx context.Context, text string, continued int) string {
	if a.cfg.ID != "" || !a.cfg.Hooks.Has(event.HookStop) || continued >= maxStopContinuations || ctx.Err() != nil {
		return ""
	}
	out := a.cfg.Hooks.Run(ctx, event.HookInput{Event: event.HookStop, StopHookActive: continued > 0, LastAssistantMessage: text})
	a.hookNotices(out.Messages, out.Errors)
	if out.Stop || (out.Decision != event.HookBlock && out.Decision != event.HookDeny) {
		return ""
	}
	return "A Stop hook asks you to go on before ending the turn: " + orDefault(out.Reason, "no reason given")
}

// hookNotices tells the user what hooks said to them, and which failed.
func (a *Agent) hookNotices(messages, errs []string) {
	for _, m := range messages {
		a.cfg.Emit(event.Notice{Level: "info", Text: m})
	}
	for _, e := range errs {
		a.cfg.Emit(event.Notice{Level: "warning", Text: e})
	}
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(x, y json.RawMessage) bool {
	if bytes.Equal(x, y) {
		return true
	}
	var vx, vy any
	if json.Unmarshal(x, &vx) != nil || json.Unmarshal(y, &vy) != nil {
		return false
	}
	bx, _ := json.Marshal(vx)
	by, _ := json.Marshal(vy)
	return bytes.Equal(bx, by)
}
