package app

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"

	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/llm/anthropic"
	"github.com/ponder-agent/ponder/internal/llm/openai"
)

// Price is what a model costs, in US dollars per million tokens.
type Price = config.ModelPrice

// defaultPrices are the list prices of the models ponder names, per
// million tokens; modelPrices in the settings add others or override
// these. A model without a price is counted but not priced.
var defaultPrices = map[string]Price{
	anthropic.DefaultModel:        {Input: 3, Output: 15, CacheRead: 0.30, CacheWrite: 3.75},
	anthropic.LargestModel:        {Input: 5, Output: 25, CacheRead: 0.50, CacheWrite: 6.25},
	anthropic.DefaultFastModel:    {Input: 1, Output: 5, CacheRead: 0.10, CacheWrite: 1.25},
	openai.DefaultModel:           {Input: 1.25, Output: 10, CacheRead: 0.125},
	openai.DefaultModel + "-mini": {Input: 0.25, Output: 2, CacheRead: 0.025},
}

// ModelUsage is what one model did in this run: its requests, tokens and
// their cost. Priced is false when no price is known for the model (its
// cost is then 0).
type ModelUsage struct {
	Requests         int
	InputTokens      int
	OutputTokens     int
	CacheReadTokens  int
	CacheWriteTokens int
	CostUSD          float64
	Priced           bool
}

// meter adds up the usage of every model request of the run, by model.
type meter struct {
	mu      sync.Mutex
	prices  map[string]Price
	byModel map[string]*ModelUsage
}

func newMeter(cfg *config.Config, aliases modelAliases) *meter {
	prices := map[string]Price{}
	for k, v := range defaultPrices {
		prices[k] = v
	}
	for k, v := range cfg.Settings.ModelPrices {
		prices[aliases.resolve(k)] = v
	}
	return &meter{prices: prices, byModel: map[string]*ModelUsage{}}
}

func (m *meter) add(model string, u llm.Usage) {
	m.mu.Lock()
	defer m.mu.Unlock()
	mu := m.byModel[model]
	if mu == nil {
		mu = &ModelUsage{}
		m.byModel[model] = mu
	}
	mu.Requests++
	mu.InputTokens += u.InputTokens
	mu.OutputTokens += u.OutputTokens
	mu.CacheReadTokens += u.CacheReadTokens
	mu.CacheWriteTokens += u.CacheWriteTokens
	p, ok := m.prices[model]
	mu.Priced = ok
	if ok {
		mu.CostUSD = (float64(mu.InputTokens)*p.Input + float64(mu.OutputTokens)*p.Output +
			float64(mu.CacheReadTokens)*p.CacheRead + float64(mu.CacheWriteTokens)*p.CacheWrite) / 1e6
	}
}

func (m *meter) snapshot() map[string]ModelUsage {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]ModelUsage, len(m.byModel))
	for k, v := range m.byModel {
		out[k] = *v
	}
	return out
}

// meterProvider counts the usage each request's answer reports, under
// the model the request named (aliases resolved: it sits below
// aliasProvider).
type meterProvider struct {
	llm.Provider
	m *meter
}

func (p meterProvider) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Event, error] {
	return func(yield func(llm.Event, error) bool) {
		for ev, err := range p.Provider.Stream(ctx, req) {
			if err == nil && ev.Type == llm.EventDone && ev.Response != nil {
				p.m.add(req.Model, ev.Response.Usage)
			}
			if !yield(ev, err) {
				return
			}
		}
	}
}

// Usage returns what each model did in this run (the main conversation,
// subagents and summaries alike), by model id.
func (a *App) Usage() map[string]ModelUsage { return a.meter.snapshot() }

// CostUSD is the run's cost so far, from the models with a known price.
func (a *App) CostUSD() float64 {
	total := 0.0
	for _, u := range a.meter.snapshot() {
		total += u.CostUSD
	}
	return total
}

// CostSummary describes the run's usage and cost for a person (/cost).
func (a *App) CostSummary() string {
	usage := a.meter.snapshot()
	if len(usage) == 0 {
		return "No model requests yet in this run."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Total cost: $%.4f (this run)\n", a.CostUSD())
	var unpriced []string
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range usage {
			if !yield(k) {
				return
			}
		}
	}) {
		u := usage[name]
		fmt.Fprintf(&b, "%s: %d requests, %d input, %d output, %d cache read, %d cache write tokens",
			name, u.Requests, u.InputTokens, u.OutputTokens, u.CacheReadTokens, u.CacheWriteTokens)
		if u.Priced {
			fmt.Fprintf(&b, ", $%.4f\n", u.CostUSD)
		} else {
			b.WriteString(", no price known\n")
			unpriced = append(unpriced, name)
		}
	}
	if len(unpriced) > 0 {
		b.WriteString("Set modelPrices in your settings to price " + strings.Join(unpriced, ", ") + ".\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// APIKeySource names where the provider's key came from: the variable
// that held it, or "none".
func (a *App) APIKeySource() string {
	name := "ANTHROPIC_API_KEY"
	if a.provider != nil && a.provider.Name() == "openai" {
		name = "OPENAI_API_KEY"
	}
	if a.opts.LLM == nil && a.cfg.Getenv(name) != "" {
		return name
	}
	return "none"
}
