package app

import (
	"os"
	"path/filepath"

	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/proctree"
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
	// RunFiles is the table of files that decide what runs, in short:
	// its patterns by category, and those present in this project.
	RunFiles RunFiles
	// Killed says what becomes of commands' processes when ponder itself
	// is killed with SIGKILL, which it cannot see coming.
	Killed []string

	// Root is the project root; Trusted says whether its settings count
	// in full, and TrustedBy what made them count. Ignored are the
	// settings of an untrusted project that would widen what ponder does,
	// left out until it is trusted; TrustHow says how to trust it.
	Root      string
	Trusted   bool
	TrustedBy string
	Ignored   []TrustItem
	TrustHow  string
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
	cfg, err := doctorConfig(opts, d.Dir)
	if err != nil {
		d.SettingsErr = err
		cfg = &config.Config{}
	} else {
		d.ConfigDir, d.Files = cfg.ConfigDir, cfg.Files
		for _, w := range cfg.Warnings {
			d.Warnings = append(d.Warnings, w.String())
		}
		d.Root, d.Trusted, d.TrustedBy = cfg.ProjectDir, cfg.Trusted, cfg.TrustedBy
		if !cfg.Trusted {
			d.Ignored, d.TrustHow = trustItems(cfg), trustHow(cfg)
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
	d.RunFiles = describeRunFiles(d.Dir, d.ConfigDir)
	set := cfg.Settings.Sandbox
	d.Required = config.Bool(set.Required, false)
	d.AllowUnsandboxed = config.Bool(set.AllowUnsandboxed, false)
	sb, err := sandbox.New(sandbox.Options{Network: config.Bool(set.Network, false), Choice: opts.Getenv(sandbox.ChoiceEnv)})
	if err != nil {
		d.SandboxErr = err
	} else {
		st := sb.Status()
		d.Sandbox, d.SandboxKind, d.Restricts, d.Missing = st.Summary(), string(st.Kind), st.Restricts, st.Missing
		d.Killed = killedNote(st.PIDNamespaces, proctree.CanSweep())
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

// killedNote says what a SIGKILL of ponder leaves running: a command's
// shell dies with ponder, but without a PID namespace what it started
// lives on, until the next ponder start stops what carries the killed
// process's mark (where that can be done safely).
func killedNote(pidns, sweeps bool) []string {
	var out []string
	if pidns {
		out = append(out, "a confined command runs in a PID namespace of its own: its processes die with it")
		out = append(out, "a command run outside the sandbox (allowed by you or a rule) has none: what it started outlives a ponder killed with SIGKILL")
	} else {
		out = append(out, "no PID namespace for commands here: what a command started outlives a ponder killed with SIGKILL (its shell does not)")
	}
	if sweeps {
		out = append(out, "the next ponder start stops such leftovers: processes of yours that still carry the killed ponder's mark ($"+proctree.RunIDEnv+"), each checked through a pidfd")
	} else {
		out = append(out, "ponder cannot find such leftovers here (it needs /proc and pidfds): stop them yourself")
	}
	return out
}

// doctorConfig loads the settings a session in dir would use, with the
// trust opts give (--trust) or the user's answers in the interface, and
// without creating ponder's directory.
func doctorConfig(opts Options, dir string) (*config.Config, error) {
	cfgDir := opts.ConfigDir
	if cfgDir == "" {
		var err error
		if cfgDir, err = config.DefaultDir(opts.Getenv); err != nil {
			return nil, err
		}
	}
	home, _ := os.UserHomeDir()
	cfg, err := config.Load(config.Options{
		ConfigDir:  cfgDir,
		ProjectDir: config.FindRoot(dir, cfgDir, home),
		Getenv:     opts.Getenv,
		Trust:      opts.Trust,
		Remembered: true,
		Flag:       opts.Settings,
	})
	if err != nil {
		return nil, err
	}
	addUntrustedExtras(cfg)
	return cfg, nil
}
