package app

import (
	"context"
	"strings"

	"github.com/ponder-agent/ponder/internal/agent"
)

// defaultCompactAt is the share of the context window at which the
// conversation is compacted when settings do not say.
const defaultCompactAt = 0.85

// windows are context windows of model families, longest prefix first.
var windows = []struct {
	prefix string
	tokens int
}{
	{"gpt-4.1", 1_000_000},
	{"gpt-5", 400_000},
	{"claude-", 200_000},
	{"o3", 200_000},
	{"o4", 200_000},
	{"gpt-4o", 128_000},
}

// contextWindow is the model's context window in tokens: the setting, or
// what is known of the model's family, or a conservative default.
func (a *App) contextWindow(model string) int {
	if w := a.cfg.Settings.Context.Window; w != nil {
		return *w
	}
	for _, w := range windows {
		if strings.HasPrefix(model, w.prefix) {
			return w.tokens
		}
	}
	return 128_000
}

// autoCompact compacts the main conversation once its context reaches the
// configured share of the window (context.autoCompactAt; 0 turns it off).
func (a *App) autoCompact(ctx context.Context, ag *agent.Agent, tokens int) error {
	share := defaultCompactAt
	if s := a.cfg.Settings.Context.AutoCompactAt; s != nil {
		share = *s
	}
	if share <= 0 || ag != a.mainAgent() {
		return nil
	}
	window := a.contextWindow(a.modelFor(a.plan.Mode()))
	if float64(tokens) < share*float64(window) {
		return nil
	}
	return a.compactAgent(ctx, ag, "", "auto")
}
