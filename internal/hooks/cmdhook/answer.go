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
	} `json:"hookSpecificOutput"`
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
		if ev == event.HookPreToolUse {
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
	case event.HookPreToolUse, event.HookPostToolUse, event.HookPostToolUseFailure, event.HookUserPromptSubmit, event.HookStop:
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
	}
	return out, nil
}

func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(nothing on standard error)"
	}
	return s
}
