package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// The user's own settings may loosen the sandbox; a project's (which come
// with the repository) may only tighten it.
func TestSandboxSettings(t *testing.T) {
	tests := []struct {
		name                       string
		user, project, local       string
		required, unsandboxed, net bool
		warnings                   int
	}{
		{"defaults", "", "", "", false, false, false, 0},
		{"user loosens", `{"sandbox":{"allowUnsandboxed":true,"network":true}}`, "", "", false, true, true, 0},
		{"project cannot loosen", "", `{"sandbox":{"allowUnsandboxed":true,"network":true}}`, "", false, false, false, 2},
		{"local file cannot loosen either", "", "", `{"sandbox":{"network":true}}`, false, false, false, 1},
		{"project may require", "", `{"sandbox":{"required":true}}`, "", true, false, false, 0},
		{"project cannot unrequire", `{"sandbox":{"required":true}}`, `{"sandbox":{"required":false}}`, "", true, false, false, 1},
		{"project may close what the user opened", `{"sandbox":{"network":true}}`, `{"sandbox":{"network":false}}`, "", false, false, false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfgDir, proj := t.TempDir(), t.TempDir()
			if tc.user != "" {
				write(t, filepath.Join(cfgDir, "settings.json"), tc.user)
			}
			if tc.project != "" {
				write(t, filepath.Join(proj, ".ponder", "settings.json"), tc.project)
			}
			if tc.local != "" {
				write(t, filepath.Join(proj, ".ponder", "settings.local.json"), tc.local)
			}
			c, err := Load(Options{ConfigDir: cfgDir, ProjectDir: proj, Getenv: noEnv})
			if err != nil {
				t.Fatal(err)
			}
			sb := c.Settings.Sandbox
			if Bool(sb.Required, false) != tc.required || Bool(sb.AllowUnsandboxed, false) != tc.unsandboxed || Bool(sb.Network, false) != tc.net {
				t.Errorf("required=%v allowUnsandboxed=%v network=%v", Bool(sb.Required, false), Bool(sb.AllowUnsandboxed, false), Bool(sb.Network, false))
			}
			if len(c.Warnings) != tc.warnings {
				t.Errorf("warnings %v", c.Warnings)
			}
			for _, w := range c.Warnings {
				if !strings.Contains(w.String(), "may tighten the sandbox, not loosen it") {
					t.Errorf("warning %q", w)
				}
			}
		})
	}
}

func TestSandboxSettingsMustBeBooleans(t *testing.T) {
	cfgDir, proj := t.TempDir(), t.TempDir()
	write(t, filepath.Join(cfgDir, "settings.json"), "{\n  \"sandbox\": {\"network\": \"yes\"}\n}")
	_, err := Load(Options{ConfigDir: cfgDir, ProjectDir: proj, Getenv: noEnv})
	if err == nil || !strings.Contains(err.Error(), "settings.json:2") || !strings.Contains(err.Error(), "network") {
		t.Fatalf("err = %v", err)
	}
}
