package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/ponder-agent/ponder/event"
)

// hostCalls are ponder's own control requests to the host (hook
// callbacks), each waiting for its control_response.
type hostCalls struct {
	out *writer

	mu      sync.Mutex
	pending map[string]chan hostReply
	closed  bool
}

// hostReply is the host's answer to one request.
type hostReply struct {
	payload json.RawMessage
	err     error
}

// errHostGone says the host closed its input.
var errHostGone = errors.New("the host is gone")

func newHostCalls(out *writer) *hostCalls {
	return &hostCalls{out: out, pending: map[string]chan hostReply{}}
}

// call sends a control request and waits for its answer or for ctx to end
// (then the host is told to drop it).
func (h *hostCalls) call(ctx context.Context, req map[string]any) (json.RawMessage, error) {
	id, ch, err := h.send(req)
	if err != nil {
		return nil, err
	}
	return h.wait(ctx, id, ch)
}

// send writes a control request and returns what its answer will come
// through.
func (h *hostCalls) send(req map[string]any) (string, chan hostReply, error) {
	id := "ponder_" + uuid.NewString()
	ch := make(chan hostReply, 1)
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return "", nil, errHostGone
	}
	h.pending[id] = ch
	h.mu.Unlock()
	h.out.line(map[string]any{"type": "control_request", "request_id": id, "request": req})
	return id, ch, nil
}

// wait waits for the answer to request id, or for ctx to end (then the
// host is told to drop it).
func (h *hostCalls) wait(ctx context.Context, id string, ch chan hostReply) (json.RawMessage, error) {
	select {
	case r := <-ch:
		return r.payload, r.err
	case <-ctx.Done():
		h.mu.Lock()
		delete(h.pending, id)
		h.mu.Unlock()
		h.out.line(map[string]any{"type": "control_cancel_request", "request_id": id})
		return nil, ctx.Err()
	}
}

// deliver hands a control_response to the request waiting for it, and
// reports whether one was.
func (h *hostCalls) deliver(id string, payload json.RawMessage, failed string) bool {
	h.mu.Lock()
	ch, ok := h.pending[id]
	delete(h.pending, id)
	h.mu.Unlock()
	if !ok {
		return false
	}
	r := hostReply{payload: payload}
	if failed != "" {
		r.err = errors.New(failed)
	}
	ch <- r
	return true
}

// close fails every waiting request and those made later: the host has
// closed its input.
func (h *hostCalls) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for id, ch := range h.pending {
		ch <- hostReply{err: errHostGone}
		delete(h.pending, id)
	}
}

// hook is a hook the host runs: each run is a hook_callback request. A
// hook registered with onFailure "block" that fails blocks what it
// guards; any other failed hook has no opinion.
func (h *hostCalls) hook(callbackID string, blockOnFailure bool) event.HookFunc {
	return func(ctx context.Context, in event.HookInput) (event.HookOutput, error) {
		req := map[string]any{"subtype": "hook_callback", "callback_id": callbackID, "input": wireHookInput(in)}
		if in.ToolUseID != "" {
			req["tool_use_id"] = in.ToolUseID
		}
		payload, err := h.call(ctx, req)
		if err == nil {
			var out event.HookOutput
			if out, err = readHookOutput(in.Event, payload); err == nil {
				return out, nil
			}
		}
		if blockOnFailure {
			d := event.HookBlock
			if in.Event == event.HookPreToolUse {
				d = event.HookDeny
			}
			return event.HookOutput{Decision: d, Reason: fmt.Sprintf("the %s hook failed (%v), and it blocks when it fails", in.Event, err)}, nil
		}
		return event.HookOutput{}, err
	}
}

// wireHookInput is a hook's input as the SDK's hook callbacks read it.
func wireHookInput(in event.HookInput) map[string]any {
	m := map[string]any{"hook_event_name": in.Event, "session_id": in.SessionID, "transcript_path": in.TranscriptPath, "cwd": in.Cwd,
		"permission_mode": in.Mode}
	if in.AgentID != "" {
		m["agent_id"] = in.AgentID
	}
	switch in.Event {
	case event.HookPreToolUse, event.HookPostToolUse:
		m["tool_name"] = in.ToolName
		m["tool_input"] = objectOr(in.ToolInput)
		m["tool_use_id"] = in.ToolUseID
		if in.Event == event.HookPostToolUse {
			m["tool_response"] = in.ToolResponse
		}
	case event.HookPostToolUseFailure:
		m["tool_name"] = in.ToolName
		m["tool_input"] = objectOr(in.ToolInput)
		m["tool_use_id"] = in.ToolUseID
		m["error"] = in.ToolResponse
	case event.HookSessionStart:
		m["source"] = in.Source
	case event.HookSessionEnd:
		m["reason"] = in.Reason
	case event.HookUserPromptSubmit:
		m["prompt"] = in.Prompt
	case event.HookStop:
		m["stop_hook_active"] = in.StopHookActive
		m["last_assistant_message"] = in.LastAssistantMessage
	case event.HookPreCompact:
		m["trigger"] = in.Trigger
		m["custom_instructions"] = in.CustomInstructions
	case event.HookNotification:
		m["message"] = in.Message
	}
	return m
}

// readHookOutput reads the SDK's hook output: the common fields (continue,
// stopReason, decision, reason, systemMessage) and hookSpecificOutput
// (permissionDecision and its reason, additionalContext).
func readHookOutput(ev event.HookEvent, payload json.RawMessage) (event.HookOutput, error) {
	var o struct {
		Async         bool   `json:"async"`
		Continue      *bool  `json:"continue"`
		StopReason    string `json:"stopReason"`
		Decision      string `json:"decision"`
		Reason        string `json:"reason"`
		SystemMessage string `json:"systemMessage"`
		Specific      *struct {
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
			AdditionalContext        string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if len(payload) == 0 || string(payload) == "null" {
		return event.HookOutput{}, nil
	}
	if err := json.Unmarshal(payload, &o); err != nil {
		return event.HookOutput{}, fmt.Errorf("hook output: %v", err)
	}
	if o.Async {
		return event.HookOutput{}, nil
	}
	out := event.HookOutput{Reason: o.Reason, SystemMessage: o.SystemMessage}
	switch strings.ToLower(o.Decision) {
	case "block":
		out.Decision = event.HookBlock
		if ev == event.HookPreToolUse {
			out.Decision = event.HookDeny
		}
	case "approve":
		if ev == event.HookPreToolUse {
			out.Decision = event.HookAllow
		}
	}
	if s := o.Specific; s != nil {
		switch strings.ToLower(s.PermissionDecision) {
		case "allow":
			out.Decision = event.HookAllow
		case "ask":
			out.Decision = event.HookAsk
		case "deny":
			out.Decision = event.HookDeny
		}
		if s.PermissionDecisionReason != "" {
			out.Reason = s.PermissionDecisionReason
		}
		out.Context = s.AdditionalContext
	}
	if o.Continue != nil && !*o.Continue {
		out.Stop, out.StopReason = true, o.StopReason
	}
	return out, nil
}

// secondsOf is a hook timeout in seconds as a duration (0: the default).
func secondsOf(s float64) time.Duration {
	if s <= 0 {
		return 0
	}
	return time.Duration(s * float64(time.Second))
}
