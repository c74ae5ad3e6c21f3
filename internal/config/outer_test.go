package config

import (
	"path/filepath"
	"slices"
	"testing"
)

// A project root inside another project (a submodule, a nested .git or
// .ponder) keeps the outer projects' deny and ask rules, trusted or not,
// and nothing else of theirs; the walk stops below the home directory.
func TestOuterProjectsNarrow(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	cfgDir := filepath.Join(home, ".ponder")
	outer := filepath.Join(home, "src", "outer")
	inner := filepath.Join(outer, "vendor", "lib")
	write(t, filepath.Join(cfgDir, "settings.json"), `{"permissions":{"deny":["Bash(user:*)"]}}`)
	write(t, filepath.Join(home, ".ponder", "settings.local.json"), `{"permissions":{"deny":["Bash(home:*)"]}}`)
	write(t, filepath.Join(home, "src", ".ponder", "settings.json"), `{"permissions":{"ask":["Bash(src:*)"]}}`)
	write(t, filepath.Join(outer, ".ponder", "settings.json"), `{"model":"outer-model","permissions":{"allow":["Bash(rm:*)"],"deny":["Bash(outer:*)","Read(.env)"],"defaultMode":"acceptEdits"}}`)
	write(t, filepath.Join(outer, ".ponder", "settings.local.json"), `{"permissions":{"ask":["Bash(local:*)"]},"shellEnvironment":{"set":{"LD_PRELOAD":"x"}}}`)
	write(t, filepath.Join(inner, ".git"), "gitdir: ../../.git/modules/lib\n")
	write(t, filepath.Join(inner, ".ponder", "settings.json"), `{"permissions":{"deny":["Bash(inner:*)"]}}`)

	for _, trust := range []bool{false, true} {
		c, err := Load(Options{ConfigDir: cfgDir, ProjectDir: inner, Getenv: noEnv, Home: home, Trust: trust})
		if err != nil {
			t.Fatal(err)
		}
		var files []string
		for _, l := range c.Layers {
			files = append(files, l.File)
			if l.Scope == ScopeOuter && l.Root != filepath.Dir(filepath.Dir(l.File)) {
				t.Errorf("trust=%v: %s has root %s", trust, l.File, l.Root)
			}
		}
		want := []string{filepath.Join(cfgDir, "settings.json"),
			filepath.Join(home, "src", ".ponder", "settings.json"),
			filepath.Join(outer, ".ponder", "settings.json"), filepath.Join(outer, ".ponder", "settings.local.json"),
			filepath.Join(inner, ".ponder", "settings.json")}
		if !slices.Equal(files, want) {
			t.Fatalf("trust=%v: layers %q, want %q", trust, files, want)
		}
		s := c.Settings
		if !slices.Equal(s.Permissions.Deny, []string{"Bash(user:*)", "Bash(outer:*)", "Read(.env)", "Bash(inner:*)"}) {
			t.Errorf("trust=%v: deny %q", trust, s.Permissions.Deny)
		}
		if !slices.Equal(s.Permissions.Ask, []string{"Bash(src:*)", "Bash(local:*)"}) {
			t.Errorf("trust=%v: ask %q", trust, s.Permissions.Ask)
		}
		if len(s.Permissions.Allow) > 0 || s.Model != nil || s.Permissions.DefaultMode != nil || len(s.ShellEnvironment.Set) > 0 {
			t.Errorf("trust=%v: an outer project widened something: %+v", trust, s)
		}
		if pf := c.ProjectFiles(); !slices.Equal(pf, []string{filepath.Join(inner, ".ponder", "settings.json")}) {
			t.Errorf("trust=%v: project files %q", trust, pf)
		}
	}
}
