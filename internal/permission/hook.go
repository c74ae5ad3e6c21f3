package permission

import "strings"

// HookRuling is what a session's PreToolUse hooks said about a call. It is
// one voice among the rules, weighed by Decide: a refusal counts like a
// deny rule, asking like an ask rule, and allowing spares the question a
// call would otherwise ask, but never lifts a deny rule or a hard limit
// (plan mode, read-only agents, ponder's secrets).
type HookRuling struct {
	// Behavior is Allow, Ask or Deny; zero when no hook decided.
	Behavior Behavior
	// Reason is the hooks' reason, told to the model with a refusal.
	Reason string
}

// hookDecision turns a hook's ruling into a decision.
func hookDecision(h HookRuling) Decision {
	reason := strings.TrimSpace(h.Reason)
	switch h.Behavior {
	case Deny:
		if reason == "" {
			reason = "A PreToolUse hook refused this call."
		} else {
			reason = "A PreToolUse hook refused this call: " + reason
		}
	case Ask:
		if reason == "" {
			reason = "A PreToolUse hook asks for confirmation."
		}
	default:
		if reason == "" {
			reason = "Allowed by a PreToolUse hook."
		}
	}
	return Decision{Behavior: h.Behavior, Rule: "hook", Reason: reason}
}
