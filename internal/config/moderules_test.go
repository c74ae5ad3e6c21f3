package config

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Mode-scoped rules read back as written; mistakes name file and line.
func TestModeRulesSettings(t *testing.T) {
	cfg, proj := t.TempDir(), t.TempDir()
	write(t, filepath.Join(cfg, "settings.json"), `{
  "permissions": {
    "allow": ["Read"],
    "modeRules": [{"modes": ["plan"], "allow": ["Bash(gh issue view:*)"]}]
  },
  "planMode": {"commands": ["gh pr diff:*", "Bash(make -n)"]}
}`)
	c, err := Load(Options{ConfigDir: cfg, ProjectDir: proj, Getenv: noEnv, Trust: true})
	if err != nil {
		t.Fatal(err)
	}
	mr := c.Settings.Permissions.ModeRules
	if len(mr) != 1 || !slices.Equal(mr[0].Modes, []string{"plan"}) || !slices.Equal(mr[0].Allow, []string{"Bash(gh issue view:*)"}) {
		t.Fatalf("modeRules = %+v", mr)
	}
	if got := PlanCommandRules(c.Settings.PlanMode.Commands); !slices.Equal(got, []string{"Bash(gh pr diff:*)", "Bash(make -n)"}) {
		t.Fatalf("plan command rules = %q", got)
	}

	for _, tc := range []struct {
		name, content, want string
		line                int
	}{
		{"deny", "{\"permissions\": {\"modeRules\": [\n {\"modes\": [\"plan\"],\n  \"deny\": [\"Bash(rm:*)\"]}]}}", "hold in every mode", 3},
		{"ask", "{\"permissions\": {\"modeRules\": [\n {\"modes\": [\"plan\"], \"ask\": [\"Bash\"]}]}}", "hold in every mode", 2},
		{"mode", "{\"permissions\": {\"modeRules\": [\n {\"modes\": [\"planning\"], \"allow\": [\"Bash\"]}]}}", `not "planning"`, 2},
		{"no modes", "{\"permissions\": {\"modeRules\": [\n {\"allow\": [\"Bash\"]}]}}", "names no modes", 0},
		{"empty command", "{\"planMode\": {\n\"commands\": [\"\"]}}", "is empty", 2},
		{"unclosed", "{\"planMode\": {\"commands\": [\"Bash(gh\"]}}", "not closed", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "settings.json")
			write(t, path, tc.content)
			_, err := Load(Options{ConfigDir: dir, ProjectDir: t.TempDir(), Getenv: noEnv})
			var cerr *Error
			if !errors.As(err, &cerr) || cerr.File != path || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one in %s mentioning %q", err, path, tc.want)
			}
			if tc.line > 0 && cerr.Line != tc.line {
				t.Errorf("line = %d, want %d (%v)", cerr.Line, tc.line, err)
			}
		})
	}
}

// A project the user has not trusted cannot vouch for commands in any
// mode: its mode rules and plan-mode commands are allow rules.
func TestUntrustedProjectModeRulesIgnored(t *testing.T) {
	cfg, proj := t.TempDir(), t.TempDir()
	write(t, filepath.Join(proj, ".ponder", "settings.json"),
		`{"permissions": {"modeRules": [{"modes": ["plan"], "allow": ["Bash"]}]}, "planMode": {"commands": ["curl:*"], "interview": true}}`)
	c, err := Load(Options{ConfigDir: cfg, ProjectDir: proj, Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if c.Trusted || len(c.Settings.Permissions.ModeRules) > 0 || len(c.Settings.PlanMode.Commands) > 0 {
		t.Fatalf("an untrusted project's mode rules counted: %+v %+v", c.Settings.Permissions, c.Settings.PlanMode)
	}
	for _, l := range c.Layers {
		if len(l.Settings.Permissions.ModeRules) > 0 || len(l.Settings.PlanMode.Commands) > 0 {
			t.Fatalf("layer %s keeps mode rules", l.File)
		}
	}
	var names []string
	for _, i := range c.Ignored {
		names = append(names, i.String())
	}
	ignored := strings.Join(names, "\n")
	for _, want := range []string{"permissions.modeRules", "planMode.commands"} {
		if !strings.Contains(ignored, want) {
			t.Errorf("Ignored lacks %q:\n%s", want, ignored)
		}
	}
	if !c.Interview() {
		t.Error("harmless plan-mode settings must still count")
	}
}
