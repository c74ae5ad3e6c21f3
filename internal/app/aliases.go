package app

import (
	"context"
	"iter"
	"strings"

	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/llm/anthropic"
	"github.com/ponder-agent/ponder/internal/llm/openai"
)

// modelAliases is what short model names stand for with provider: the
// settings' modelAliases, then the provider's own table (sonnet, opus,
// haiku). A settings alias may name a provider alias ("fast": "haiku").
type modelAliases struct {
	user, builtin map[string]string
}

func aliasesFor(provider string, cfg *config.Config) modelAliases {
	builtin := anthropic.Aliases
	if provider == "openai" {
		builtin = openai.Aliases
	}
	return modelAliases{user: cfg.Settings.ModelAliases, builtin: builtin}
}

// resolve returns the model id name stands for, or name itself when it is
// no alias. Aliases are matched without regard to case.
func (m modelAliases) resolve(name string) string {
	key := strings.ToLower(strings.TrimSpace(name))
	if id, ok := m.user[key]; ok {
		name, key = id, strings.ToLower(id)
	}
	if id, ok := m.builtin[key]; ok {
		return id
	}
	return name
}

// resolveModels resolves every role's model.
func (m modelAliases) resolveModels(ms Models) Models {
	ms.Main, ms.Explore = m.resolve(ms.Main), m.resolve(ms.Explore)
	if ms.Plan != "" {
		ms.Plan = m.resolve(ms.Plan)
	}
	return ms
}

// aliasProvider resolves the model of every request, whatever chose it
// (a flag, the settings, an agent's or a command's model, a host's
// set_model, an approval), so a request never carries a bare alias.
type aliasProvider struct {
	llm.Provider
	aliases modelAliases
}

func (p aliasProvider) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Event, error] {
	req.Model = p.aliases.resolve(req.Model)
	return p.Provider.Stream(ctx, req)
}
