package app

import (
	"math"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/llm"
)

func TestMeterPricesByModel(t *testing.T) {
	cfg := &config.Config{Settings: config.Settings{ModelPrices: map[string]config.ModelPrice{"haiku": {Input: 2, Output: 4}}}}
	m := newMeter(cfg, aliasesFor("anthropic", cfg))
	m.add("claude-sonnet-5-5", llm.Usage{InputTokens: 1_000_000, OutputTokens: 100_000, CacheReadTokens: 1_000_000})
	m.add("claude-haiku-5-5", llm.Usage{InputTokens: 500_000, OutputTokens: 500_000})
	m.add("local-model", llm.Usage{InputTokens: 10})
	got := m.snapshot()
	if s := got["claude-sonnet-5-5"]; math.Abs(s.CostUSD-(3+1.5+0.3)) > 1e-9 || !s.Priced || s.Requests != 1 {
		t.Errorf("sonnet: %+v", s)
	}
	if h := got["claude-haiku-5-5"]; math.Abs(h.CostUSD-3) > 1e-9 {
		t.Errorf("haiku with the settings' price: %+v", h)
	}
	if l := got["local-model"]; l.Priced || l.CostUSD != 0 || l.InputTokens != 10 {
		t.Errorf("unpriced: %+v", l)
	}
	a := &App{meter: m}
	if s := a.CostSummary(); !strings.Contains(s, "Total cost: $7.8000") || !strings.Contains(s, "local-model: 1 requests") || !strings.Contains(s, "modelPrices") {
		t.Errorf("summary:\n%s", s)
	}
}
