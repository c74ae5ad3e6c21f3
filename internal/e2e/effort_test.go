package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// The effort of each role reaches the model's request as its API spells
// it: an extended-thinking budget on Anthropic's, reasoning_effort on
// OpenAI's; a model that takes none gets none.
func TestEffortPerRoleReachesTheModel(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "plan", When: fakemodel.Match{LastUser: "think about it"}, Text: "thought"},
			fakemodel.Reply{Name: "implement", When: fakemodel.Match{LastUser: "now do it"}, Text: "done"},
			fakemodel.Reply{Name: "plain", When: fakemodel.Match{LastUser: "old model"}, Text: "ok"},
		)
		os.MkdirAll(w.cfg, 0o755)
		if err := os.WriteFile(filepath.Join(w.cfg, "settings.json"), []byte(`{"effort": {"plan": "medium", "implement": "low"}}`), 0o644); err != nil {
			t.Fatal(err)
		}
		model, other := "claude-sonnet-4-5", "claude-3-5-haiku-latest"
		if api == "openai" {
			model, other = "o4-mini", "gpt-4o"
		}
		w.mustRun(0, "", "-p", "think about it", "--permission-mode", "plan", "--plan-effort", "high", "--model", model)
		w.mustRun(0, "", "-p", "now do it", "--model", model)
		w.mustRun(0, "", "-p", "old model", "--model", other)
		reqs := w.srv.Requests()
		if len(reqs) != 3 {
			t.Fatalf("%d requests", len(reqs))
		}
		type wire struct {
			budget int
			effort string
		}
		want := []wire{{24576, ""}, {2048, ""}, {0, ""}}
		if api == "openai" {
			want = []wire{{0, "high"}, {0, "low"}, {0, ""}}
		}
		for i, r := range reqs {
			if got := (wire{r.ThinkingBudget, r.ReasoningEffort}); got != want[i] {
				t.Errorf("request %d (%s): %+v, want %+v", i, r.Model, got, want[i])
			}
		}
		o := w.run("", "-p", "x", "--plan-effort", "max")
		if o.code == 0 {
			t.Error("--plan-effort max accepted")
		}
	})
}
