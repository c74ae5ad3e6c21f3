package acp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

func TestSlashCommands(t *testing.T) {
	r := newRig(t, "", []fakemodel.Reply{
		{Name: "planning", When: fakemodel.Match{LastUser: "add caching"}, Text: "Exploring."},
	})
	_, sess := r.start()
	if resp := r.prompt(sess.SessionId, "/plan add caching"); resp.StopReason != sdk.StopReasonEndTurn {
		t.Errorf("stop reason %s", resp.StopReason)
	}
	r.prompt(sess.SessionId, "/clear")
	c := r.client
	c.mu.Lock()
	defer c.mu.Unlock()
	var names []string
	for _, u := range c.updates {
		if a := u.Update.AvailableCommandsUpdate; a != nil {
			for _, cmd := range a.AvailableCommands {
				names = append(names, cmd.Name)
			}
		}
	}
	if !slices.Equal(names, []string{"plan", "compact", "clear"}) {
		t.Errorf("commands advertised %v (once)", names)
	}
	if got := c.modeUpdates(); !slices.Equal(got, []string{"plan"}) {
		t.Errorf("/plan: mode updates %v", got)
	}
	text := c.agentText()
	for _, want := range []string{"Plan mode is on", "Exploring.", "Started a fresh conversation"} {
		if !strings.Contains(text, want) {
			t.Errorf("agent text %q lacks %q", text, want)
		}
	}
	// The config-option form follows every mode change too.
	found := false
	for _, u := range c.updates {
		if o := u.Update.ConfigOptionUpdate; o != nil && o.ConfigOptions[0].Select.CurrentValue == "plan" {
			found = true
		}
	}
	if !found {
		t.Error("no config_option_update with the plan mode")
	}
}

// What the editor could not be told while the session started (an
// untrusted project's widening settings ignored) comes with the first
// prompt, as a thought.
func TestStartWarningsReachTheEditor(t *testing.T) {
	base := t.TempDir()
	r := newRig(t, base, []fakemodel.Reply{{Name: "ok", Text: "Done."}})
	if err := os.MkdirAll(filepath.Join(r.dir, ".ponder"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.dir, ".ponder", "settings.json"), []byte(`{"permissions":{"allow":["Bash"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, sess := r.start()
	r.prompt(sess.SessionId, "hello")
	c := r.client
	c.mu.Lock()
	defer c.mu.Unlock()
	var thoughts []string
	for _, u := range c.updates {
		if th := u.Update.AgentThoughtChunk; th != nil {
			thoughts = append(thoughts, th.Content.Text.Text)
		}
	}
	all := strings.Join(thoughts, "\n")
	if !strings.Contains(all, "trust") {
		t.Errorf("no trust warning among the thoughts: %q", all)
	}
	if !strings.Contains(c.agentText(), "Done.") {
		t.Errorf("agent text %q", c.agentText())
	}
}
