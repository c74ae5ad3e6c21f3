package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/internal/agentdef"
	"github.com/ponder-agent/ponder/internal/config"
)

// loadConfig finds the project root of dir and loads its settings, with
// the trust the options give.
func loadConfig(opts Options, dir string) (*config.Config, error) {
	cfgDir := opts.ConfigDir
	if cfgDir == "" {
		var err error
		if cfgDir, err = config.DefaultDir(opts.Getenv); err != nil {
			return nil, &UsageError{Msg: "settings: " + err.Error()}
		}
	}
	if err := ensureConfigDir(cfgDir, cfgDir); err != nil {
		return nil, err
	}
	home, _ := os.UserHomeDir()
	cfg, err := config.Load(config.Options{
		ConfigDir:  cfgDir,
		ProjectDir: config.FindRoot(dir, cfgDir, home),
		Getenv:     opts.Getenv,
		Trust:      opts.Trust,
		Remembered: opts.RememberedTrust,
		Flag:       opts.Settings,
	})
	if err != nil {
		return nil, &UsageError{Msg: "settings: " + err.Error()}
	}
	addUntrustedExtras(cfg)
	return cfg, nil
}

// addUntrustedExtras adds to what an untrusted project's files would have
// changed what lies outside its settings files: its agents' model choices
// and its commands' allowed-tools and models.
func addUntrustedExtras(cfg *config.Config) {
	if cfg.Trusted {
		return
	}
	for _, m := range agentdef.IgnoredModels(filepath.Join(cfg.ProjectDir, ".ponder", "agents")) {
		cfg.Ignored = append(cfg.Ignored, config.Ignored{File: m.File, Name: "model", Value: m.Model})
	}
	cfg.Ignored = append(cfg.Ignored, ignoredCommandGrants(cfg.ProjectDir)...)
}

// UntrustedIgnores names, for a person, what ponder leaves out of an
// untrusted project's files.
const UntrustedIgnores = "its hooks, MCP servers (.mcp.json included), allow rules, a permissive default mode, " +
	"model choices (its agents' and commands' too), shell variables and its commands' allowed-tools"

// trustHow says how to trust the project at cfg's root.
func trustHow(cfg *config.Config) string {
	return fmt.Sprintf("answer yes when the interface asks, run with --trust, or add %s to trustedFolders in %s",
		cfg.ProjectDir, filepath.Join(cfg.ConfigDir, "settings.json"))
}

// trustNotice is the one notice a session gives when an untrusted
// folder's settings would have widened what ponder does, or "".
func trustNotice(cfg *config.Config) string {
	if cfg.Trusted || len(cfg.Ignored) == 0 {
		return ""
	}
	var parts []string
	for _, it := range trustItems(cfg) {
		// A command's front matter is named when the command is used,
		// where it matters (expandCommand).
		if isCommandItem(it.Name) {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s (%s) in %s", it.Name, it.Value, it.File))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("this folder is not trusted, so its settings may only narrow what ponder does; ignored: %s. "+
		"To use them, run with --trust or add %s to trustedFolders in %s.",
		strings.Join(parts, "; "), cfg.ProjectDir, filepath.Join(cfg.ConfigDir, "settings.json"))
}

// isCommandItem reports whether an ignored setting's name is a custom
// command's front matter (see ignoredCommandGrants).
func isCommandItem(name string) bool {
	return strings.HasPrefix(name, "allowed-tools of /") || strings.HasPrefix(name, "model of /")
}

// TrustItem is a setting an untrusted project's files would apply.
type TrustItem struct {
	// File is the settings file, relative to the project root.
	File string
	// Name is the setting's dotted name and Value its value in short.
	Name, Value string
}

func trustItems(cfg *config.Config) []TrustItem {
	out := make([]TrustItem, 0, len(cfg.Ignored))
	for _, ig := range cfg.Ignored {
		file := ig.File
		if rel, err := filepath.Rel(cfg.ProjectDir, file); err == nil {
			file = rel
		}
		out = append(out, TrustItem{File: file, Name: ig.Name, Value: ig.Value})
	}
	return out
}

// TrustQuestion is what the interactive interface asks before a session
// starts in a folder the user has not answered for: whether to trust the
// project's settings files, and what they would enable.
type TrustQuestion struct {
	// Root is the project root; Files are its settings files.
	Root  string
	Files []string
	// Enables lists what the files would turn on if trusted.
	Enables []TrustItem
}

// AskTrust returns the trust question for a session with opts, or nil
// when there is nothing to ask: the folder is trusted, the user already
// answered, or its settings would change nothing beyond narrowing.
func AskTrust(opts Options) (*TrustQuestion, error) {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	dir, err := workDir(opts)
	if err != nil {
		return nil, err
	}
	opts.RememberedTrust = true
	cfg, err := loadConfig(opts, dir)
	if err != nil {
		return nil, err
	}
	if cfg.Trusted || cfg.TrustAnswered || len(cfg.Ignored) == 0 {
		return nil, nil
	}
	return &TrustQuestion{Root: cfg.ProjectDir, Files: cfg.ProjectFiles(), Enables: trustItems(cfg)}, nil
}

// AnswerTrust remembers the user's answer to q in <config>/trust.json.
func AnswerTrust(opts Options, q *TrustQuestion, trusted bool) error {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	cfgDir := opts.ConfigDir
	if cfgDir == "" {
		var err error
		if cfgDir, err = config.DefaultDir(opts.Getenv); err != nil {
			return err
		}
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	return config.RememberTrust(cfgDir, q.Root, trusted, now())
}
