package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func noEnv(string) string { return "" }

func TestLoadMergesInOrder(t *testing.T) {
	cfgDir, proj := t.TempDir(), t.TempDir()
	write(t, filepath.Join(cfgDir, "settings.json"), `{"model":"user-model","permissions":{"allow":["Read"],"defaultMode":"acceptEdits"},"planMode":{"interview":true}}`)
	write(t, filepath.Join(proj, ".ponder", "settings.json"), `{"model":"project-model","permissions":{"allow":["Bash(git diff:*)","Read"]}}`)
	write(t, filepath.Join(proj, ".ponder", "settings.local.json"), `{"permissions":{"deny":["Read(~/.ssh/**)"]},"planMode":{"interview":false}}`)
	c, err := Load(Options{ConfigDir: cfgDir, ProjectDir: proj, Getenv: noEnv, Trust: true})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Settings
	if got := Str(s.Model, ""); got != "project-model" {
		t.Errorf("model = %q, want project-model", got)
	}
	if got := strings.Join(s.Permissions.Allow, " "); got != "Read Bash(git diff:*)" {
		t.Errorf("allow = %q", got)
	}
	if got := strings.Join(s.Permissions.Deny, " "); got != "Read(~/.ssh/**)" {
		t.Errorf("deny = %q", got)
	}
	if got := Str(s.Permissions.DefaultMode, ""); got != "acceptEdits" {
		t.Errorf("defaultMode = %q", got)
	}
	if c.Interview() {
		t.Error("local settings should turn interview off")
	}
	if len(c.Files) != 3 {
		t.Errorf("files = %v", c.Files)
	}
}

func TestLoadErrorsNameFileAndLine(t *testing.T) {
	cases := []struct {
		name, content, want string
		line                int
	}{
		{"syntax", "{\n  \"model\": \"x\",\n  \"provider\": ,\n}", "invalid JSON", 3},
		{"type", "{\n  \"permissions\": {\n    \"allow\": \"Read\"\n  }\n}", `"permissions.allow" must be an array of strings`, 3},
		{"bool", "{\"planMode\": {\"interview\": \"yes\"}}", "must be true or false", 1},
		{"mode", "{\n\"permissions\": {\"defaultMode\": \"yolo\"}}", `must be one of default, acceptEdits, plan, bypassPermissions, not "yolo"`, 2},
		{"count", "{\"planMode\":\n {\"exploreAgentCount\": 11}}", "between 1 and 10", 2},
		{"array", "[1,2]", "must be a JSON object", 1},
		{"variant", `{"planMode":{"variant":"long"}}`, "full, trim, cut, cap", 1},
		{"share", `{"context":{"autoCompactAt":1.5}}`, "between 0 and 1", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			proj := t.TempDir()
			path := filepath.Join(proj, ".ponder", "settings.json")
			write(t, path, tc.content)
			_, err := Load(Options{ConfigDir: t.TempDir(), ProjectDir: proj, Getenv: noEnv})
			var cerr *Error
			if !errors.As(err, &cerr) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if cerr.File != path {
				t.Errorf("file = %q, want %q", cerr.File, path)
			}
			if tc.line > 0 && cerr.Line != tc.line {
				t.Errorf("line = %d, want %d (%v)", cerr.Line, tc.line, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}

func TestUnknownKeysWarnWithLine(t *testing.T) {
	proj := t.TempDir()
	write(t, filepath.Join(proj, ".ponder", "settings.json"), "{\n  \"model\": \"m\",\n  \"colour\": \"blue\",\n  \"planMode\": {\n    \"speed\": 3\n  }\n}")
	c, err := Load(Options{ConfigDir: t.TempDir(), ProjectDir: proj, Getenv: noEnv, Trust: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) != 2 {
		t.Fatalf("warnings = %v", c.Warnings)
	}
	if w := c.Warnings[0]; w.Line != 3 || !strings.Contains(w.Msg, `"colour"`) {
		t.Errorf("first warning = %v", w)
	}
	if w := c.Warnings[1]; w.Line != 5 || !strings.Contains(w.Msg, `"planMode.speed"`) {
		t.Errorf("second warning = %v", w)
	}
	if Str(c.Settings.Model, "") != "m" {
		t.Error("known keys must still load")
	}
}

func TestAgentCountsAndEnv(t *testing.T) {
	proj := t.TempDir()
	write(t, filepath.Join(proj, ".ponder", "settings.json"), `{"planMode":{"exploreAgentCount":5}}`)
	env := map[string]string{"PONDER_PLAN_AGENT_COUNT": "7", "PONDER_PLAN_EXPLORE_AGENT_COUNT": "11"}
	c, err := Load(Options{ConfigDir: t.TempDir(), ProjectDir: proj, Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.ExploreAgentCount(); got != 5 {
		t.Errorf("explore = %d, want 5 (env value 11 is out of range)", got)
	}
	if got := c.PlanAgentCount(); got != 7 {
		t.Errorf("plan = %d, want 7 from the environment", got)
	}
	env["PONDER_PLAN_INTERVIEW"] = "1"
	if !c.Interview() {
		t.Error("PONDER_PLAN_INTERVIEW=1 should turn the interview workflow on")
	}
	c2, _ := Load(Options{ConfigDir: t.TempDir(), ProjectDir: t.TempDir(), Getenv: noEnv})
	if c2.ExploreAgentCount() != 0 || c2.PlanAgentCount() != 0 {
		t.Errorf("unset = %d, %d; want 0, 0 (plan mode's defaults apply)", c2.ExploreAgentCount(), c2.PlanAgentCount())
	}
}

func TestDefaultDir(t *testing.T) {
	d, err := DefaultDir(func(k string) string {
		if k == "PONDER_CONFIG_DIR" {
			return "rel/dir"
		}
		return ""
	})
	if err != nil || !filepath.IsAbs(d) || !strings.HasSuffix(d, "rel/dir") {
		t.Errorf("DefaultDir = %q, %v", d, err)
	}
}
