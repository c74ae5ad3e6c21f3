package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/ponder-agent/ponder/internal/smallfile"
)

// Options say where to look for settings.
type Options struct {
	// ConfigDir is ponder's own directory; empty means $PONDER_CONFIG_DIR
	// or ~/.ponder.
	ConfigDir string
	// ProjectDir is the project root, holding .ponder/ (see FindRoot).
	ProjectDir string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Home is the home directory, for ~ in trustedFolders; empty means
	// the user's.
	Home string
	// Trust is --trust: the project's settings count in full for this
	// run.
	Trust bool
	// Remembered lets the answers the user gave in the interactive
	// interface (<config>/trust.json) decide trust. Headless runs leave
	// it off: there, only --trust and trustedFolders trust a folder.
	Remembered bool
	// Flag is --settings: a JSON object, or the name of a file holding
	// one; "" for none.
	Flag string
}

// Scope says which settings file a layer comes from.
type Scope int

// The settings files, in the order they are merged.
const (
	ScopeUser Scope = iota
	ScopeProject
	ScopeLocal
	// ScopeOuter is the settings of a project the project root lies in
	// (the root is a submodule or a nested repository): only their deny
	// and ask rules count, trusted or not. They come after the user's.
	ScopeOuter
	// ScopeFlag is the settings of --settings, given by the user (or the
	// user's program) for one run: they count as the user's own, trusted
	// folder or not, and come last, so they win.
	ScopeFlag
)

// Layer is one settings file as it counts: a project file of an untrusted
// folder is already narrowed.
type Layer struct {
	File     string
	Scope    Scope
	Settings Settings
	// Root is the project root the file's relative path patterns start
	// from: the outer project's for ScopeOuter, else the project root.
	Root string
}

// Config is the merged settings of a project plus the environment.
type Config struct {
	ConfigDir  string
	ProjectDir string
	Settings   Settings
	// Files lists the settings files that were read, in merge order.
	Files []string
	// Layers holds each file's settings, in merge order.
	Layers []Layer
	// Warnings lists what was ignored.
	Warnings []Warning
	// Trusted says the project's settings count in full; TrustedBy says
	// why ("--trust", "trustedFolders", "your answer") when they do.
	Trusted   bool
	TrustedBy string
	// TrustAnswered says the user already answered whether to trust this
	// folder (trust.json), so the interactive interface need not ask.
	TrustAnswered bool
	// Ignored lists, for an untrusted folder, what its settings would
	// have changed.
	Ignored []Ignored
	getenv  func(string) string
}

// ProjectFiles are the project's settings files that exist.
func (c *Config) ProjectFiles() []string {
	var out []string
	for _, l := range c.Layers {
		if l.Scope == ScopeProject || l.Scope == ScopeLocal {
			out = append(out, l.File)
		}
	}
	return out
}

// Load reads the user, project and local settings files, in that order,
// later ones overriding earlier ones. Missing files are skipped; a broken
// one is an *Error naming the file and line. Unless the folder is trusted,
// the project's files only narrow (see narrow); bypassPermissions is never
// taken from any file.
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
	home := o.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	c := &Config{ConfigDir: dir, ProjectDir: o.ProjectDir, getenv: getenv}
	userFile := filepath.Join(dir, "settings.json")
	files := []struct {
		path  string
		scope Scope
	}{
		{userFile, ScopeUser},
		{filepath.Join(o.ProjectDir, ".ponder", "settings.json"), ScopeProject},
		{filepath.Join(o.ProjectDir, ".ponder", "settings.local.json"), ScopeLocal},
	}
	flagFile, flagData, err := flagSettings(o.Flag)
	if err != nil {
		return nil, err
	}
	if flagFile != "" {
		files = append(files, struct {
			path  string
			scope Scope
		}{flagFile, ScopeFlag})
	}
	for _, f := range files {
		if f.scope != ScopeUser && f.scope != ScopeFlag && resolved(f.path) == resolved(userFile) {
			continue // the project is ponder's config directory's parent
		}
		data, err := flagData, error(nil)
		if f.scope != ScopeFlag {
			data, err = smallfile.Read(f.path, maxSettingsSize)
		}
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, &Error{File: f.path, Msg: err.Error()}
		}
		s, warnings, err := parse(f.path, data)
		if err != nil {
			return nil, err
		}
		c.Files = append(c.Files, f.path)
		c.Warnings = append(c.Warnings, warnings...)
		if m := s.Permissions.DefaultMode; m != nil && *m == "bypassPermissions" {
			s.Permissions.DefaultMode = nil
			c.Warnings = append(c.Warnings, Warning{File: f.path, Msg: "permissions.defaultMode bypassPermissions is ignored: bypassing permissions is never turned on by a settings file; start ponder with --dangerously-skip-permissions for that"})
		}
		if f.scope != ScopeUser && len(s.TrustedFolders) > 0 {
			// --settings included: --trust is the flag for this folder.
			s.TrustedFolders = nil
			c.Warnings = append(c.Warnings, Warning{File: f.path, Msg: "trustedFolders is read from your user settings only; ignored here"})
		}
		if f.scope != ScopeUser && f.scope != ScopeFlag {
			c.Warnings = append(c.Warnings, projectSandbox(f.path, &s)...)
			c.Warnings = append(c.Warnings, projectFiles(f.path, &s)...)
		}
		c.Layers = append(c.Layers, Layer{File: f.path, Scope: f.scope, Settings: s, Root: o.ProjectDir})
	}
	// The projects around the root narrow it, after the user's settings.
	outer, err := outerLayers(o.ProjectDir, dir, home)
	if err != nil {
		return nil, err
	}
	at := 0
	if len(c.Layers) > 0 && c.Layers[0].Scope == ScopeUser {
		at = 1
	}
	c.Layers = slices.Insert(c.Layers, at, outer...)
	for _, l := range outer {
		c.Files = append(c.Files, l.File)
	}
	// The project's .mcp.json comes before its settings files, which may
	// redefine a server of the same name.
	mcpLayer, err := readProjectMCP(o.ProjectDir)
	if err != nil {
		return nil, err
	}
	if mcpLayer != nil {
		at := len(c.Layers)
		for i, l := range c.Layers {
			if l.Scope == ScopeProject || l.Scope == ScopeLocal {
				at = i
				break
			}
		}
		c.Layers = slices.Insert(c.Layers, at, *mcpLayer)
		c.Files = append(c.Files, mcpLayer.File)
	}
	c.decideTrust(o, home)
	for i, l := range c.Layers {
		if l.Scope != ScopeUser && l.Scope != ScopeFlag && !c.Trusted {
			narrowed, ignored := narrow(l.Settings)
			c.Layers[i].Settings = narrowed
			eachSet(l.Settings, func(name string, v reflect.Value) {
				if slices.Contains(ignored, name) {
					c.Ignored = append(c.Ignored, Ignored{File: l.File, Name: name, Value: shortValue(v)})
				}
			})
		}
		c.Settings.merge(c.Layers[i].Settings)
	}
	return c, nil
}

// decideTrust settles whether the project's settings count in full.
func (c *Config) decideTrust(o Options, home string) {
	var user Settings
	for _, l := range c.Layers {
		if l.Scope == ScopeUser {
			user = l.Settings
		}
	}
	tf, err := readTrust(c.ConfigDir)
	if err != nil {
		c.Warnings = append(c.Warnings, Warning{File: trustPath(c.ConfigDir), Msg: "unreadable, so no folder counts as trusted by it: " + err.Error()})
	}
	entry, answered := tf.Folders[resolved(c.ProjectDir)]
	c.TrustAnswered = answered
	switch {
	case o.Trust:
		c.Trusted, c.TrustedBy = true, "--trust"
	case listedIn(c.ProjectDir, user.TrustedFolders, home):
		c.Trusted, c.TrustedBy = true, "trustedFolders"
	case o.Remembered && answered && entry.Trusted:
		c.Trusted, c.TrustedBy = true, "your answer in "+trustPath(c.ConfigDir)
	}
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
// $PONDER_PLAN_EXPLORE_AGENT_COUNT, else the setting, else 0 (plan mode's
// own default).
func (c *Config) ExploreAgentCount() int {
	return c.agentCount("PONDER_PLAN_EXPLORE_AGENT_COUNT", c.Settings.PlanMode.ExploreAgentCount, 0)
}

// PlanAgentCount is how many Plan agents the plan workflow suggests:
// $PONDER_PLAN_AGENT_COUNT, else the setting, else 0 (plan mode's own
// default).
func (c *Config) PlanAgentCount() int {
	return c.agentCount("PONDER_PLAN_AGENT_COUNT", c.Settings.PlanMode.PlanAgentCount, 0)
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

// ScopeFence reports whether an approved plan fences accept-edits
// (planMode.scopeFence, default true).
func (c *Config) ScopeFence() bool {
	return deref(c.Settings.PlanMode.ScopeFence, true)
}

// ReturnAfterImplementation reports whether plan mode comes back on when
// an approved plan's implementation ends (planMode.returnAfterImplementation).
func (c *Config) ReturnAfterImplementation() bool {
	return deref(c.Settings.PlanMode.ReturnAfterImplementation, false)
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

// maxSettingsSize bounds a settings file; anything larger is refused
// rather than read.
const maxSettingsSize = 4 << 20

// FlagName is how --settings given as JSON is named in messages.
const FlagName = "--settings"

// flagSettings reads --settings: a JSON object given inline (named
// "--settings" in messages), or a file holding one.
func flagSettings(arg string) (name string, data []byte, err error) {
	if strings.TrimSpace(arg) == "" {
		return "", nil, nil
	}
	if strings.HasPrefix(strings.TrimSpace(arg), "{") {
		return FlagName, []byte(arg), nil
	}
	path, err := filepath.Abs(arg)
	if err != nil {
		return "", nil, &Error{File: arg, Msg: err.Error()}
	}
	data, err = smallfile.Read(path, maxSettingsSize)
	if err != nil {
		return "", nil, &Error{File: FlagName + " " + arg, Msg: err.Error()}
	}
	return path, data, nil
}
