package e2e

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// The result prices the run from the price table, by model, in the
// Claude Agent SDK's shape (modelUsage, total_cost_usd); modelPrices in
// the settings override the table; init and the result say where the key
// came from.
func TestResultPricesTheRunByModel(t *testing.T) {
	price := map[string][2]float64{"anthropic": {3, 15}, "openai": {1.25, 10}}
	model := map[string]string{"anthropic": "claude-sonnet-5-5", "openai": "gpt-5.5"}
	key := map[string]string{"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, fakemodel.Reply{Name: "hi", Text: "hello", Times: -1})
		check := func(in, out float64) {
			t.Helper()
			o := w.mustRun(0, "", "-p", "hi", "--model", "sonnet", "--output-format", "stream-json", "--verbose")
			ls := lines(t, o.stdout)
			if ls[0]["subtype"] != "init" || ls[0]["apiKeySource"] != key[api] {
				t.Errorf("init: apiKeySource %v, want %s", ls[0]["apiKeySource"], key[api])
			}
			res := ls[len(ls)-1]
			mu, _ := res["modelUsage"].(map[string]any)
			m, _ := mu[model[api]].(map[string]any)
			if m == nil {
				t.Fatalf("no modelUsage for %s: %v", model[api], res["modelUsage"])
			}
			tokIn, tokOut := m["inputTokens"].(float64), m["outputTokens"].(float64)
			want := (tokIn*in + tokOut*out) / 1e6
			if tokIn == 0 || math.Abs(m["costUSD"].(float64)-want) > 1e-9 || math.Abs(res["total_cost_usd"].(float64)-want) > 1e-9 {
				t.Errorf("cost %v, total %v, want %v for %v in and %v out", m["costUSD"], res["total_cost_usd"], want, tokIn, tokOut)
			}
		}
		check(price[api][0], price[api][1])
		os.MkdirAll(w.cfg, 0o755)
		os.WriteFile(filepath.Join(w.cfg, "settings.json"), []byte(`{"modelPrices":{"sonnet":{"input":100,"output":1000}}}`), 0o644)
		check(100, 1000)
	})
}
