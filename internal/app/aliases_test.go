package app

import (
	"testing"

	"github.com/ponder-agent/ponder/internal/config"
)

func TestModelAliasesResolve(t *testing.T) {
	cfg := &config.Config{Settings: config.Settings{ModelAliases: map[string]string{"fast": "haiku", "opus": "big-local", "loop": "loop"}}}
	a := aliasesFor("anthropic", cfg)
	for in, want := range map[string]string{
		"sonnet": "claude-sonnet-5-5", "HAIKU": "claude-haiku-5-5", "fast": "claude-haiku-5-5",
		"opus": "big-local", "loop": "loop", "claude-x-1": "claude-x-1", "": "",
	} {
		if got := a.resolve(in); got != want {
			t.Errorf("resolve(%q) = %q, want %q", in, got, want)
		}
	}
	if got := aliasesFor("openai", &config.Config{}).resolve("opus"); got != "gpt-5.5" {
		t.Errorf("openai opus = %q", got)
	}
}
