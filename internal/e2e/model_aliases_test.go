package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// Short model names (sonnet, opus, haiku) become the provider's model ids:
// the request the model server receives names the id, never the alias;
// the user's modelAliases come first.
func TestModelAliasesReachTheServerAsIDs(t *testing.T) {
	want := map[string]map[string]string{
		"anthropic": {"sonnet": "claude-sonnet-5-5", "opus": "claude-opus-5-5", "haiku": "claude-haiku-5-5"},
		"openai":    {"sonnet": "gpt-5.5", "opus": "gpt-5.5", "haiku": "gpt-5.5-mini"},
	}
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, fakemodel.Reply{Name: "hi", Text: "hello", Times: 100})
		for alias, id := range want[api] {
			w.mustRun(0, "", "-p", "hi", "--model", alias)
			reqs := w.srv.Requests()
			if got := reqs[len(reqs)-1].Model; got != id {
				t.Errorf("--model %s: the server got %q, want %q", alias, got, id)
			}
		}
		// The user's table: an alias of one's own, and one that overrides
		// a built-in name.
		os.MkdirAll(w.cfg, 0o755)
		os.WriteFile(filepath.Join(w.cfg, "settings.json"), []byte(`{"modelAliases":{"opus":"local-big","fast":"haiku"}}`), 0o644)
		for alias, id := range map[string]string{"opus": "local-big", "fast": want[api]["haiku"], "Sonnet": want[api]["sonnet"], "my-model": "my-model"} {
			w.mustRun(0, "", "-p", "hi", "--model", alias)
			reqs := w.srv.Requests()
			if got := reqs[len(reqs)-1].Model; got != id {
				t.Errorf("--model %s with modelAliases: the server got %q, want %q", alias, got, id)
			}
		}
	})
}

// A subagent defined with an alias for its model runs on the model the
// alias stands for.
func TestAgentModelAliasIsResolved(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "launch", When: fakemodel.Match{LastUser: "review it"},
				ToolCalls: []fakemodel.ToolCall{taskCall("reviewer", "look at main.go")}},
			fakemodel.Reply{Name: "agent", When: fakemodel.Match{FirstUser: "look at main.go"}, Text: "looks fine"},
			fakemodel.Reply{Name: "main done", When: fakemodel.Match{ToolResult: "looks fine"}, Text: "done"},
		)
		os.MkdirAll(filepath.Join(w.cfg, "agents"), 0o755)
		os.WriteFile(filepath.Join(w.cfg, "agents", "reviewer.md"),
			[]byte("---\nname: reviewer\ndescription: Reviews\ntools: Read\nmodel: haiku\n---\nReview.\n"), 0o644)
		w.mustRun(0, "", "-p", "review it", "--model", "sonnet")
		fast := map[string]string{"anthropic": "claude-haiku-5-5", "openai": "gpt-5.5-mini"}[api]
		agentRan := false
		for _, r := range w.srv.Requests() {
			if r.Model == "haiku" || r.Model == "sonnet" {
				t.Errorf("a request carried the bare alias %q", r.Model)
			}
			agentRan = agentRan || r.Model == fast
		}
		if !agentRan {
			t.Errorf("no request ran on %s", fast)
		}
		w.allUsed()
	})
}
