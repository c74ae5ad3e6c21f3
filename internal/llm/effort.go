package llm

import (
	"fmt"
	"strings"
)

// Effort is how hard a model should think before it answers: low, medium
// or high, or "" for the model's default. Anthropic models that think get
// an extended-thinking budget for it, OpenAI reasoning models a
// reasoning_effort; other models get nothing, since an API rejects what a
// model does not support.
type Effort string

// The efforts.
const (
	EffortLow    Effort = "low"
	EffortMedium Effort = "medium"
	EffortHigh   Effort = "high"
)

// ParseEffort checks an effort as written in settings or on the command
// line.
func ParseEffort(s string) (Effort, error) {
	switch e := Effort(strings.TrimSpace(s)); e {
	case "", EffortLow, EffortMedium, EffortHigh:
		return e, nil
	}
	return "", fmt.Errorf("unknown effort %q (want low, medium or high)", s)
}

// ThinkingBudget is the extended-thinking budget, in tokens, an effort
// stands for on Anthropic's API; 0 for none.
func (e Effort) ThinkingBudget() int {
	switch e {
	case EffortLow:
		return 2048
	case EffortMedium:
		return 8192
	case EffortHigh:
		return 24576
	}
	return 0
}

// Model families that take an effort, by the start of their names. A
// model not listed gets none: a request with an unsupported parameter
// fails, where one without it merely thinks less.
var (
	thinkingModels  = []string{"claude-opus-5", "claude-sonnet-5", "claude-haiku-5", "claude-opus-4", "claude-sonnet-4", "claude-3-7-sonnet", "claude-haiku-4"}
	reasoningModels = []string{"o1", "o3", "o4-mini", "gpt-5"}
)

// SupportsThinking reports whether an Anthropic model takes an extended
// thinking budget.
func SupportsThinking(model string) bool { return hasPrefix(model, thinkingModels) }

// SupportsReasoningEffort reports whether an OpenAI model takes a
// reasoning_effort.
func SupportsReasoningEffort(model string) bool { return hasPrefix(model, reasoningModels) }

func hasPrefix(model string, prefixes []string) bool {
	for _, p := range prefixes {
		if model == p || strings.HasPrefix(model, p+"-") || strings.HasPrefix(model, p+".") {
			return true
		}
	}
	return false
}
