package cmdhook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ponder-agent/ponder/event"
)

// wireOutput is the JSON object a hook may print on exit 0, in the field
// names other coding agents' hooks use.
type wireOutput struct {
	// Continue false ends the turn (after the current call), with
	// StopReason for the user.
	Continue   *bool  `json:"continue"`
	StopReason string `json:"stopReason"`
	// SystemMessage is shown to the user.
	SystemMessage string `json:"systemMessage"`
	// Decision is "block" (or, before a call, the older "approve"), with
	// Reason.
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
	// SuppressOutput is accepted; ponder shows no hook output anyway.
	SuppressOutput bool `json:"suppressOutput"`
	// HookSpecificOutput holds a PreToolUse hook's ruling and the context
	// any hook adds for the model.
	HookSpecificOutput *struct {
		HookEventName            string `json:"hookEventName"`
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
		AdditionalContext        string `json:"additionalContext"`
		// Decision is a PermissionRequest hook's answer.
		Decision *permissionDecision `json:"decision"`
	} `json:"hookSpecificOutput"`
}

// permissionDecision is a PermissionRequest hook's answer: behavior
// "allow" (with updatedInput, and updatedPermissions whose setMode entry
// picks the mode an approved plan is implemented in) or "deny" (with
// message).
type permissionDecision struct {
	Behavior           string          `json:"behavior"`
	UpdatedInput       json.RawMessage `json:"updatedInput"`
	Message            string          `json:"message"`
	UpdatedPermissions []struct {
		Type string `json:"type"`
		Mode string `json:"mode"`
	} `json:"updatedPermissions"`
}

// answer turns how a hook ended into its answer for ev.
func answer(ev event.HookEvent, res result) (event.HookOutput, error) {
	switch res.code {
	case 0:
		return parseStdout(ev, res.stdout)
	case 2:
		reason := clip(string(res.stderr), maxText)
		if !blockable(ev) {
			return event.HookOutput{}, fmt.Errorf("exit status 2, which cannot block %s: %s", ev, orNone(firstLines(reason, errorLines)))
		}
		d := event.HookBlock
		if ev == event.HookPreToolUse || ev == event.HookPermissionRequest {
			d = event.HookDeny
		}
		if reason == "" {
			reason = fmt.Sprintf("a %s hook blocked this (exit status 2) without saying why", ev)
		}
		return event.HookOutput{Decision: d, Reason: reason}, nil
	}
	return event.HookOutput{}, fmt.Errorf("exit status %d: %s", res.code, orNone(firstLines(string(res.stderr), errorLines)))
}

// blockable reports whether a hook may block at ev (exit status 2).
func blockable(ev event.HookEvent) bool {
	switch ev {
	case event.HookPreToolUse, event.HookPostToolUse, event.HookPostToolUseFailure, event.HookUserPromptSubmit, event.HookStop,
		event.HookPermissionRequest:
		return true
	}
	return false
}

// plainContext reports whether plain standard output at ev is context for
// the model.
func plainContext(ev event.HookEvent) bool {
	return ev == event.HookUserPromptSubmit || ev == event.HookSessionStart
}

// parseStdout reads what a hook that exited 0 printed.
func parseStdout(ev event.HookEvent, stdout []byte) (event.HookOutput, error) {
	text := bytes.TrimSpace(stdout)
	if len(text) == 0 {
		return event.HookOutput{}, nil
	}
	if text[0] != '{' {
		if plainContext(ev) {
			return event.HookOutput{Context: clip(string(text), maxText)}, nil
		}
		return event.HookOutput{}, nil
	}
	var w wireOutput
	dec := json.NewDecoder(bytes.NewReader(text))
	if err := dec.Decode(&w); err != nil || dec.More() {
		if err == nil {
			err = fmt.Errorf("text after the object")
		}
		return event.HookOutput{}, fmt.Errorf("its output is not one valid JSON object: %v", err)
	}
	out := event.HookOutput{
		SystemMessage: clip(w.SystemMessage, maxText),
		Reason:        clip(w.Reason, maxText),
	}
	if w.Continue != nil && !*w.Continue {
		out.Stop = true
		out.StopReason = clip(w.StopReason, maxText)
	}
	switch d := strings.ToLower(strings.TrimSpace(w.Decision)); d {
	case "":
	case "approve":
		if ev == event.HookPreToolUse {
			out.Decision = event.HookAllow
		}
	case "block":
		out.Decision = event.HookBlock
		if ev == event.HookPreToolUse {
			out.Decision = event.HookDeny
		}
	default:
		return event.HookOutput{}, fmt.Errorf("decision %q is not one ponder knows (want \"block\")", w.Decision)
	}
	if s := w.HookSpecificOutput; s != nil {
		if p := strings.ToLower(strings.TrimSpace(s.PermissionDecision)); p != "" {
			if ev != event.HookPreToolUse {
				return event.HookOutput{}, fmt.Errorf("permissionDecision is for PreToolUse hooks, not %s", ev)
			}
			switch p {
			case event.HookAllow, event.HookAsk, event.HookDeny:
				out.Decision = p
				out.Reason = clip(s.PermissionDecisionReason, maxText)
			default:
				return event.HookOutput{}, fmt.Errorf("permissionDecision %q is not allow, deny or ask", s.PermissionDecision)
			}
		}
		out.Context = clip(s.AdditionalContext, maxText)
		if s.Decision != nil {
			if ev != event.HookPermissionRequest {
				return event.HookOutput{}, fmt.Errorf("decision is for PermissionRequest hooks, not %s", ev)
			}
			if err := permissionAnswer(*s.Decision, &out); err != nil {
				return event.HookOutput{}, err
			}
		}
	}
	return out, nil
}

func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(nothing on standard error)"
	}
	return s
}

// permissionAnswer reads a PermissionRequest hook's decision into out.
func permissionAnswer(d permissionDecision, out *event.HookOutput) error {
	switch b := strings.ToLower(strings.TrimSpace(d.Behavior)); b {
	case event.HookAllow:
		out.Decision = event.HookAllow
		if in := bytes.TrimSpace(d.UpdatedInput); len(in) > 0 && !bytes.Equal(in, []byte("null")) {
			if in[0] != '{' {
				return fmt.Errorf("updatedInput must be a JSON object")
			}
			out.UpdatedInput = append(json.RawMessage(nil), in...)
		}
		for _, p := range d.UpdatedPermissions {
			if p.Type == "setMode" && strings.TrimSpace(p.Mode) != "" {
				out.Mode = strings.TrimSpace(p.Mode)
			}
		}
	case event.HookDeny:
		out.Decision = event.HookDeny
		out.Reason = clip(d.Message, maxText)
	default:
		return fmt.Errorf("decision behavior %q is not allow or deny", d.Behavior)
	}
	return nil
}
