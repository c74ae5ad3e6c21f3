package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// Options say where to look for settings.
type Options struct {
	// ConfigDir is ponder's own directory; empty means $PONDER_CONFIG_DIR
	// or ~/.ponder.
	ConfigDir string
	// ProjectDir is the project root, holding .ponder/.
	ProjectDir string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
}

// Config is the merged settings of a project plus the environment.
type Config struct {
	ConfigDir  string
	ProjectDir string
	Settings   Settings
	// Files lists the settings files that were read, in merge order.
	Files []string
	// Warnings lists what was ignored.
	Warnings []Warning
	getenv   func(string) string
}

// Load reads the user, project and local settings files, in that order,
// later ones overriding earlier ones. Missing files are skipped; a broken
// one is an *Error naming the file and line.
func Load(o Options) (*Config, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	dir := o.ConfigDir
	if dir == "" {
		var err error
		if dir, err = DefaultDir(getenv); err != nil {
			return nil, err
		}
	}
	c := &Config{ConfigDir: dir, ProjectDir: o.ProjectDir, getenv: getenv}
	for i, path := range []string{
		filepath.Join(dir, "settings.json"),
		filepath.Join(o.ProjectDir, ".ponder", "settings.json"),
		filepath.Join(o.ProjectDir, ".ponder", "settings.local.json"),
	} {
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, &Error{File: path, Msg: err.Error()}
		}
		s, warnings, err := parse(path, data)
		if err != nil {
			return nil, err
		}
		c.Files = append(c.Files, path)
		c.Warnings = append(c.Warnings, warnings...)
		if i > 0 {
			c.Warnings = append(c.Warnings, projectSandbox(path, &s)...)
		}
		c.Settings.merge(s)
	}
	return c, nil
}

// DefaultDir is $PONDER_CONFIG_DIR, or ~/.ponder.
func DefaultDir(getenv func(string) string) (string, error) {
	if d := getenv("PONDER_CONFIG_DIR"); d != "" {
		return filepath.Abs(d)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot find the home directory for ponder's settings (set PONDER_CONFIG_DIR): %w", err)
	}
	return filepath.Join(home, ".ponder"), nil
}

// Getenv reads the environment the config was loaded with.
func (c *Config) Getenv(key string) string { return c.getenv(key) }

// ExploreAgentCount is how many Explore agents the plan workflow suggests:
// $PONDER_PLAN_EXPLORE_AGENT_COUNT, else the setting, else 3.
func (c *Config) ExploreAgentCount() int {
	return c.agentCount("PONDER_PLAN_EXPLORE_AGENT_COUNT", c.Settings.PlanMode.ExploreAgentCount, 3)
}

// PlanAgentCount is how many Plan agents the plan workflow suggests:
// $PONDER_PLAN_AGENT_COUNT, else the setting, else 1.
func (c *Config) PlanAgentCount() int {
	return c.agentCount("PONDER_PLAN_AGENT_COUNT", c.Settings.PlanMode.PlanAgentCount, 1)
}

func (c *Config) agentCount(env string, setting *int, def int) int {
	if n, err := strconv.Atoi(c.getenv(env)); err == nil && n >= 1 && n <= 10 {
		return n
	}
	if setting != nil {
		return *setting
	}
	return def
}

// Interview reports whether the interview workflow is on.
func (c *Config) Interview() bool {
	if v := c.getenv("PONDER_PLAN_INTERVIEW"); v != "" {
		b, err := strconv.ParseBool(v)
		return err == nil && b
	}
	return deref(c.Settings.PlanMode.Interview, false)
}

// Str returns *p, or def when p is nil.
func Str(p *string, def string) string { return deref(p, def) }

func deref[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

// Bool returns *p, or def when p is nil.
func Bool(p *bool, def bool) bool { return deref(p, def) }

// Int returns *p, or def when p is nil.
func Int(p *int, def int) int { return deref(p, def) }
