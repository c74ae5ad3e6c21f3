package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

func TestFirstScreenSaysWhatPonderIsTheModeModelAndKeys(t *testing.T) {
	f := newFixture(t, false, fakemodel.Reply{Text: "Hello."})
	s := f.screen()
	for _, want := range []string{"a coding agent that plans before it changes your code", "Mode: default · Model: claude-sonnet-5-5", "shift+tab", "/init", "esc"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the first screen lacks %q:\n%s", want, s)
		}
	}
	f.typeText("hi")
	f.keys("enter")
	if s := f.screen(); strings.Contains(s, "plans before it changes") {
		t.Fatalf("the first screen stays after the first prompt:\n%s", s)
	}
}

func TestInformationCommands(t *testing.T) {
	f := newFixtureWith(t, false, func(base string) {
		os.MkdirAll(filepath.Join(base, "config"), 0o755)
		os.WriteFile(filepath.Join(base, "config", "settings.json"), []byte(`{"permissions":{"allow":["Bash(go test:*)"],"deny":["Read(./secrets/**)"]}}`), 0o644)
	})
	run := func(cmd string) string {
		f.typeText(cmd)
		f.keys("enter")
		return strings.Join(strings.Fields(f.screen()), " ")
	}
	s := run("/permissions")
	for _, want := range []string{"deny Read(./secrets/**) ← ~/config/settings.json", "allow Bash(go test:*) ← ~/config/settings.json", "What no rule covers: in default mode"} {
		if !strings.Contains(s, want) {
			t.Fatalf("/permissions lacks %q:\n%s", want, f.screen())
		}
	}
	golden(t, "permissions-command", f.screen())
	s = run("/status")
	for _, want := range []string{"Session: " + f.a.ID(), "Model: claude-sonnet-5-5", "Mode: default", "Sandbox: ", "Folder: ~/project"} {
		if !strings.Contains(s, want) {
			t.Fatalf("/status lacks %q:\n%s", want, f.screen())
		}
	}
	s = run("/context")
	if !strings.Contains(s, "Context: about") || !strings.Contains(s, "of 200,000 tokens") || !strings.Contains(s, "compacted at 85%") {
		t.Fatalf("/context:\n%s", f.screen())
	}
}
