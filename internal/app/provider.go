package app

import (
	"fmt"
	"net/http"

	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/llm/anthropic"
	"github.com/ponder-agent/ponder/internal/llm/openai"
	"github.com/ponder-agent/ponder/internal/permission"
)

// Models names the model of each role.
type Models struct {
	Main    string
	Explore string
	// Plan is used in plan mode; empty means the main model.
	Plan string
}

// ForMode returns the model for a request of the main conversation: the
// plan-mode model, when one is configured, while in plan mode.
func (m Models) ForMode(mode permission.Mode) string {
	if mode == permission.ModePlan && m.Plan != "" {
		return m.Plan
	}
	return m.Main
}

// pickProvider chooses the provider: the flag, else the setting, else the
// environment (OPENAI_BASE_URL without an Anthropic key means a local
// OpenAI-compatible server).
func pickProvider(flag string, cfg *config.Config) (string, error) {
	name := flag
	if name == "" {
		name = config.Str(cfg.Settings.Provider, "")
	}
	getenv := cfg.Getenv
	if name == "" {
		switch {
		case getenv("ANTHROPIC_API_KEY") != "" || getenv("ANTHROPIC_AUTH_TOKEN") != "" || getenv("ANTHROPIC_BASE_URL") != "":
			name = "anthropic"
		case getenv("OPENAI_BASE_URL") != "" || getenv("OPENAI_API_KEY") != "":
			name = "openai"
		default:
			return "", &UsageError{Msg: "no model provider is configured: set ANTHROPIC_API_KEY for Anthropic, or OPENAI_BASE_URL (and OPENAI_API_KEY if the server needs one) for an OpenAI-compatible server"}
		}
	}
	switch name {
	case "anthropic":
		if getenv("ANTHROPIC_API_KEY") == "" && getenv("ANTHROPIC_AUTH_TOKEN") == "" {
			return "", &UsageError{Msg: "the Anthropic provider needs ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN)"}
		}
	case "openai":
	default:
		return "", &UsageError{Msg: fmt.Sprintf("unknown provider %q (want anthropic or openai)", name)}
	}
	return name, nil
}

// newProvider builds the provider with retries. Without a client of the
// caller's, requests go through one with a connect timeout and the
// configured idle timeout.
func newProvider(name string, cfg *config.Config, client *http.Client) (llm.Provider, error) {
	if client == nil {
		idle, err := cfg.IdleTimeout()
		if err != nil {
			return nil, &UsageError{Msg: err.Error()}
		}
		client = llm.NewHTTPClient(llm.NetOptions{IdleTimeout: idle})
	}
	var p llm.Provider
	if name == "openai" {
		p = openai.New(openai.Options{HTTPClient: client, BaseURL: cfg.Getenv("OPENAI_BASE_URL"), APIKey: cfg.Getenv("OPENAI_API_KEY")})
	} else {
		p = anthropic.New(anthropic.Options{HTTPClient: client, BaseURL: cfg.Getenv("ANTHROPIC_BASE_URL"), APIKey: cfg.Getenv("ANTHROPIC_API_KEY")})
	}
	policy := llm.DefaultRetryPolicy
	policy.MaxAttempts = config.Int(cfg.Settings.Retry.MaxAttempts, policy.MaxAttempts)
	return llm.WithRetry(p, policy), nil
}

// pickModels resolves each role's model: the flag, else (for the main
// model) $PONDER_MODEL, else the setting, else the provider's default.
// modelFlags are the models given on the command line.
type modelFlags struct{ main, explore, plan string }

func pickModels(provider string, flags modelFlags, cfg *config.Config) Models {
	s := cfg.Settings
	m := Models{Main: flags.main}
	if m.Main == "" {
		m.Main = cfg.Getenv("PONDER_MODEL")
	}
	if m.Main == "" {
		m.Main = config.Str(s.Model, "")
	}
	fast := anthropic.DefaultFastModel
	if m.Main == "" {
		if provider == "openai" {
			m.Main = openai.DefaultModel
		} else {
			m.Main = anthropic.DefaultModel
		}
	}
	if provider == "openai" {
		fast = m.Main
	}
	m.Explore = config.Str(s.Models.Explore, fast)
	m.Plan = config.Str(s.PlanMode.Model, config.Str(s.Models.Plan, ""))
	if flags.explore != "" {
		m.Explore = flags.explore
	}
	if flags.plan != "" {
		m.Plan = flags.plan
	}
	return m
}
