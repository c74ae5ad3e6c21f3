package app

import (
	"os"
	"path/filepath"

	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/sandbox"
)

// Diagnosis is what ponder doctor reports: the sandbox, the settings and
// the provider, found the way a session would find them, without starting
// one.
type Diagnosis struct {
	Dir       string
	ConfigDir string
	// Files are the settings files read, in merge order.
	Files    []string
	Warnings []string
	// SettingsErr is a settings file that cannot be used.
	SettingsErr error

	// Sandbox is the OS sandbox that would confine commands, in short
	// (SandboxKind names it, event.SandboxNone when there is none);
	// Restricts says what a confined command cannot do, and Missing why a
	// better mechanism is not in use.
	Sandbox     string
	SandboxKind string
	Restricts   []string
	Missing     []string
	// SandboxErr is a $PONDER_SANDBOX choice that does not work.
	SandboxErr error
	// Build says which build this is and how children lose
	// CAP_SYS_PTRACE.
	Build string
	// Modes says, per permission mode, how commands run.
	Modes []string
	// WorkspaceErr says why commands cannot be confined to the workspace
	// policy; Workspace describes the policy where they can.
	WorkspaceErr     error
	Workspace        []string
	Required         bool
	AllowUnsandboxed bool

	Provider    string
	ProviderErr error
	Models      Models
	// MCPServers are the MCP servers a session would start, as "name
	// (transport, from file)"; none from an untrusted project.
	MCPServers []string
	// Hooks are the command hooks a session would run, as "event
	// [matcher]: command (from file)"; none from an untrusted project.
	Hooks []string
}

// Diagnose looks at what a session started with opts would use.
func Diagnose(opts Options) Diagnosis {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	d := Diagnosis{Dir: opts.Dir}
	if d.Dir == "" {
		d.Dir, _ = os.Getwd()
	}
	d.Dir, _ = filepath.Abs(d.Dir)
	cfg, err := config.Load(config.Options{ConfigDir: opts.ConfigDir, ProjectDir: d.Dir, Getenv: opts.Getenv})
	if err != nil {
		d.SettingsErr = err
		cfg = &config.Config{}
	} else {
		d.ConfigDir, d.Files = cfg.ConfigDir, cfg.Files
		for _, w := range cfg.Warnings {
			d.Warnings = append(d.Warnings, w.String())
		}
	}
	for _, m := range cfg.MCPServers() {
		kind := "stdio"
		if m.Server.URL != "" && m.Server.Command == "" {
			kind = "http"
		}
		if m.Server.Type == "sdk" {
			kind = "sdk, served by the program driving ponder"
		}
		state := ""
		if m.Server.Disabled {
			state = ", disabled"
		}
		d.MCPServers = append(d.MCPServers, m.Name+" ("+kind+state+", from "+m.From+")")
	}
	d.Hooks = describeHooks(cfg.HookSources())
	set := cfg.Settings.Sandbox
	d.Required = config.Bool(set.Required, false)
	d.AllowUnsandboxed = config.Bool(set.AllowUnsandboxed, false)
	sb, err := sandbox.New(sandbox.Options{Network: config.Bool(set.Network, false), Choice: opts.Getenv(sandbox.ChoiceEnv)})
	if err != nil {
		d.SandboxErr = err
	} else {
		st := sb.Status()
		d.Sandbox, d.SandboxKind, d.Restricts, d.Missing = st.Summary(), string(st.Kind), st.Restricts, st.Missing
		d.WorkspaceErr = sb.WorkspaceAvailable()
		home, _ := os.UserHomeDir()
		root := config.FindRoot(d.Dir, cfg.ConfigDir, home)
		d.Workspace = describeWorkspace(workspaceFor(root, set.Writable, cfg.ConfigDir, nil))
		d.Modes = describeModes(sb.Available(), d.WorkspaceErr == nil, d.Required)
	}
	d.Build = sandbox.BuildNote()
	if err == nil && d.SettingsErr == nil {
		d.Provider, d.ProviderErr = pickProvider(opts.Provider, cfg)
		if d.ProviderErr == nil {
			d.Models = pickModels(d.Provider, modelFlags{opts.Model, opts.ExploreModel, opts.PlanModel}, cfg)
		}
	}
	return d
}
