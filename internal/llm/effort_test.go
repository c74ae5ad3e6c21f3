package llm_test

import (
	"context"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/llm/anthropic"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/llm/openai"
)

// An effort reaches the wire as each API spells it, and only for models
// that take it.
func TestEffortOnTheWire(t *testing.T) {
	srv := fakemodel.NewServer(fakemodel.Script{Replies: []fakemodel.Reply{{Text: "ok", Times: -1}}})
	t.Cleanup(srv.Close)
	anth := anthropic.New(anthropic.Options{BaseURL: srv.URL(), APIKey: "k"})
	oai := openai.New(openai.Options{BaseURL: srv.URL() + "/v1", APIKey: "k"})
	user := []llm.Message{{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText, Text: "hi"}}}}
	afterTools := append(user[:1:1],
		llm.Message{Role: llm.RoleAssistant, Content: []llm.Block{{Type: llm.BlockToolUse, ID: "t1", Name: "Read", Input: []byte(`{}`)}}},
		llm.Message{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockToolResult, ToolUseID: "t1", Content: "x"}}})

	for _, tc := range []struct {
		name     string
		p        llm.Provider
		req      llm.Request
		budget   int
		effort   string
		maxAbove int
	}{
		{"anthropic thinking model", anth, llm.Request{Model: "claude-sonnet-4-5", Messages: user, MaxTokens: 1000, Effort: llm.EffortHigh}, 24576, "", 24576 + 1000},
		{"anthropic after tool results", anth, llm.Request{Model: "claude-sonnet-4-5", Messages: afterTools, MaxTokens: 1000, Effort: llm.EffortHigh}, 0, "", 1000},
		{"anthropic model that does not think", anth, llm.Request{Model: "claude-3-5-haiku-latest", Messages: user, MaxTokens: 1000, Effort: llm.EffortLow}, 0, "", 1000},
		{"anthropic no effort", anth, llm.Request{Model: "claude-opus-4-1", Messages: user, MaxTokens: 1000}, 0, "", 1000},
		{"openai reasoning model", oai, llm.Request{Model: "o4-mini", Messages: user, Effort: llm.EffortLow}, 0, "low", 0},
		{"openai gpt-5", oai, llm.Request{Model: "gpt-5-mini", Messages: user, Effort: llm.EffortMedium}, 0, "medium", 0},
		{"openai model without reasoning", oai, llm.Request{Model: "gpt-4o", Messages: user, Effort: llm.EffortHigh}, 0, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, err := range tc.p.Stream(context.Background(), tc.req) {
				if err != nil {
					t.Fatal(err)
				}
			}
			reqs := srv.Requests()
			got := reqs[len(reqs)-1]
			if got.ThinkingBudget != tc.budget || got.ReasoningEffort != tc.effort {
				t.Fatalf("thinking budget %d, reasoning effort %q; want %d, %q", got.ThinkingBudget, got.ReasoningEffort, tc.budget, tc.effort)
			}
			if tc.maxAbove > 0 && got.MaxTokens != tc.maxAbove {
				t.Fatalf("max_tokens %d, want %d", got.MaxTokens, tc.maxAbove)
			}
		})
	}
}

func TestParseEffort(t *testing.T) {
	for _, s := range []string{"", "low", "medium", "high"} {
		if _, err := llm.ParseEffort(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	if _, err := llm.ParseEffort("max"); err == nil {
		t.Error("max accepted")
	}
}
