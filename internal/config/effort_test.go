package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// effort.* takes low, medium or high, and an untrusted project's does not
// count: more thinking is more cost.
func TestEffortSettings(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "settings.json"), "{\"effort\": {\n\"plan\": \"max\"}}")
	_, err := Load(Options{ConfigDir: dir, ProjectDir: t.TempDir(), Getenv: noEnv})
	if err == nil || !strings.Contains(err.Error(), "settings.json:2:") || !strings.Contains(err.Error(), `not "max"`) {
		t.Fatalf("err = %v", err)
	}

	cfg, proj := t.TempDir(), t.TempDir()
	write(t, filepath.Join(cfg, "settings.json"), `{"effort": {"implement": "low"}}`)
	write(t, filepath.Join(proj, ".ponder", "settings.json"), `{"effort": {"plan": "high", "implement": "high"}}`)
	c, err := Load(Options{ConfigDir: cfg, ProjectDir: proj, Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if c.Settings.Effort.Plan != nil || Str(c.Settings.Effort.Implement, "") != "low" {
		t.Fatalf("effort = %+v: an untrusted project's counted", c.Settings.Effort)
	}
}
