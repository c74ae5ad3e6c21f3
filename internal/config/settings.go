// Package config loads ponder's settings files (user, project, local),
// checks them, and merges them into plain structs. It has no globals: the
// caller passes the directories and the environment.
package config

import "fmt"

// Settings is the content of one settings file, or of several merged.
// Pointer and nil-slice fields distinguish "not set" from a zero value, so
// that a later file overrides only what it names.
type Settings struct {
	Model *string `json:"model,omitempty"`
	// ModelAliases names models by short names ("opus": a model id); they
	// come before the provider's own aliases (sonnet, opus, haiku).
	ModelAliases map[string]string `json:"modelAliases,omitempty"`
	// ModelPrices price models by id (or alias) for the cost ponder
	// reports, over its own table.
	ModelPrices    map[string]ModelPrice `json:"modelPrices,omitempty"`
	Provider       *string               `json:"provider,omitempty"`
	PlansDirectory *string               `json:"plansDirectory,omitempty"`
	Permissions    Permissions           `json:"permissions,omitzero"`
	Models         Models                `json:"models,omitzero"`
	Effort         Effort                `json:"effort,omitzero"`
	PlanMode       PlanMode              `json:"planMode,omitzero"`
	Retry          Retry                 `json:"retry,omitzero"`
	Context        Context               `json:"context,omitzero"`
	// ShellEnvironment decides what of ponder's environment the commands
	// it runs for the model get.
	ShellEnvironment ShellEnvironment `json:"shellEnvironment,omitzero"`
	// TrustedFolders lists folders whose project settings count in full
	// without asking (read from the user's settings only).
	TrustedFolders []string `json:"trustedFolders,omitempty"`
	Sandbox        Sandbox  `json:"sandbox,omitzero"`
	Network        Network  `json:"network,omitzero"`
	// Files bounds what the file tools may write.
	Files Files `json:"files,omitzero"`
	// Team configures teams of agents (see Team).
	Team Team `json:"team,omitzero"`
	// MCPServers are the MCP servers a session starts, by name (see
	// MCPServer); a project's .mcp.json is read as one more layer.
	MCPServers map[string]MCPServer `json:"mcpServers,omitempty"`
	// Hooks are command hooks by event (see HookGroup); every file's add
	// to the others'.
	Hooks map[string][]HookGroup `json:"hooks,omitempty"`
}

// ModelPrice is what a model costs, in US dollars per million tokens of
// each kind.
type ModelPrice struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead,omitempty"`
	CacheWrite float64 `json:"cacheWrite,omitempty"`
}

// ShellEnvironment is the environment policy of commands: start from all
// of ponder's variables, a core set or none; drop those matching Exclude;
// keep those matching Include even when they look secret; then Set.
// ponder's own credentials never pass.
type ShellEnvironment struct {
	Inherit *string           `json:"inherit,omitempty"`
	Exclude []string          `json:"exclude,omitempty"`
	Include []string          `json:"include,omitempty"`
	Set     map[string]string `json:"set,omitempty"`
}

// Permissions holds tool rules such as "Bash(git diff:*)" or "Edit(src/**)".
type Permissions struct {
	Allow       []string `json:"allow,omitempty"`
	Deny        []string `json:"deny,omitempty"`
	Ask         []string `json:"ask,omitempty"`
	DefaultMode *string  `json:"defaultMode,omitempty"`
	// ModeRules are allow rules that count in some modes only (see
	// ModeRules).
	ModeRules []ModeRules `json:"modeRules,omitempty"`
}

// Models names models for roles other than the main conversation.
type Models struct {
	Explore *string `json:"explore,omitempty"`
	Plan    *string `json:"plan,omitempty"`
}

// Effort says how hard the model thinks, by role: low, medium or high,
// sent only to models that take it (an extended-thinking budget, or
// reasoning_effort).
type Effort struct {
	// Plan is the effort while in plan mode.
	Plan *string `json:"plan,omitempty"`
	// Implement is the effort in every other mode.
	Implement *string `json:"implement,omitempty"`
}

// PlanMode tunes plan mode.
type PlanMode struct {
	// ModelCanEnter offers the EnterPlanMode tool (default true).
	ModelCanEnter *bool `json:"modelCanEnter,omitempty"`
	// ExploreAgentCount and PlanAgentCount are the agent counts the
	// workflow suggests (1..10; defaults 3 and 1).
	ExploreAgentCount *int `json:"exploreAgentCount,omitempty"`
	PlanAgentCount    *int `json:"planAgentCount,omitempty"`
	// Interview turns on the interview workflow.
	Interview *bool `json:"interview,omitempty"`
	// Variant sets the plan length guidance: full, trim, cut or cap.
	Variant *string `json:"variant,omitempty"`
	// ReminderTurns is the number of human turns between reminders (5).
	ReminderTurns *int `json:"reminderTurns,omitempty"`
	// FullReminderEvery makes every Nth reminder the full one (5).
	FullReminderEvery *int `json:"fullReminderEvery,omitempty"`
	// FileNaming is "words" (default) or "session-timestamp".
	FileNaming *string `json:"fileNaming,omitempty"`
	// RemoveTodoWrite takes TodoWrite away in plan mode.
	RemoveTodoWrite *bool `json:"removeTodoWrite,omitempty"`
	// Model is used while in plan mode (same as models.plan).
	Model *string `json:"model,omitempty"`
	// ScopeFence holds an implementation approved with accept-edits to
	// the files its plan names: other edits ask (default true).
	ScopeFence *bool `json:"scopeFence,omitempty"`
	// ReturnAfterImplementation turns plan mode back on when the
	// implementation of an approved plan ends (default false).
	ReturnAfterImplementation *bool `json:"returnAfterImplementation,omitempty"`
	// Commands are Bash allow rules for plan mode alone, in short:
	// "gh issue view:*" for {"modes": ["plan"], "allow":
	// ["Bash(gh issue view:*)"]} in permissions.modeRules. They still run
	// in the read-only sandbox.
	Commands []string `json:"commands,omitempty"`
}

// Retry tunes how failed model requests are retried.
type Retry struct {
	MaxAttempts *int `json:"maxAttempts,omitempty"`
}

// Context tunes the context window and automatic compaction.
type Context struct {
	// Window overrides the model's context window, in tokens.
	Window *int `json:"window,omitempty"`
	// AutoCompactAt is the share of the window (0..1) at which the
	// conversation is compacted automatically; 0 turns it off.
	AutoCompactAt *float64 `json:"autoCompactAt,omitempty"`
}

// Sandbox configures the OS sandbox that confines commands run without a
// yes (everything in plan mode and read-only agents, and commands judged
// read-only elsewhere).
type Sandbox struct {
	// Required refuses to start when no sandbox is available.
	Required *bool `json:"required,omitempty"`
	// AllowUnsandboxed lets plan mode and read-only agents run commands
	// judged read-only without a sandbox, the command check being the
	// only wall. Without it they run no commands when there is none.
	AllowUnsandboxed *bool `json:"allowUnsandboxed,omitempty"`
	// Network lets confined commands use the network.
	Network *bool `json:"network,omitempty"`
	// Writable are directories, besides the project and ponder's own
	// caches, that commands confined to their workspace may write
	// ("~/" is the home directory).
	Writable []string `json:"writable,omitempty"`
}

// loosens reports whether sb weakens the sandbox, which only the user's
// own settings may do: a project's settings come with the repository, and
// a repository must not open the wall that holds it.
func (sb Sandbox) loosens() bool {
	return (sb.AllowUnsandboxed != nil && *sb.AllowUnsandboxed) || (sb.Network != nil && *sb.Network) ||
		(sb.Required != nil && !*sb.Required) || len(sb.Writable) > 0
}

// Files bounds what one call of a file tool may produce.
type Files struct {
	// MaxWriteMiB is the largest file, in MiB, that Write and Edit
	// leave behind (DefaultMaxWriteMiB when unset). A project's settings
	// may lower it, not raise it past the default.
	MaxWriteMiB *int `json:"maxWriteMiB,omitempty"`
}

// DefaultMaxWriteMiB is the bound on a file Write or Edit produces when
// no setting names one: far above any source file, far below what fills
// a disk or the memory of every tool that reads the file next.
const DefaultMaxWriteMiB = 32

// Network tunes requests to the model server.
type Network struct {
	// IdleTimeout is how many seconds a model request may receive
	// nothing (no headers, no stream event) before it fails and is
	// retried; default 90. $PONDER_IDLE_TIMEOUT overrides it.
	IdleTimeout *float64 `json:"idleTimeout,omitempty"`
}

// merge lays o over s: values o sets replace those of s, rule lists add up.
func (s *Settings) merge(o Settings) {
	set(&s.Model, o.Model)
	for k, v := range o.ModelPrices {
		if s.ModelPrices == nil {
			s.ModelPrices = map[string]ModelPrice{}
		}
		s.ModelPrices[k] = v
	}
	for k, v := range o.ModelAliases {
		if s.ModelAliases == nil {
			s.ModelAliases = map[string]string{}
		}
		s.ModelAliases[k] = v
	}
	set(&s.Provider, o.Provider)
	set(&s.PlansDirectory, o.PlansDirectory)
	s.Permissions.Allow = appendNew(s.Permissions.Allow, o.Permissions.Allow)
	s.Permissions.Deny = appendNew(s.Permissions.Deny, o.Permissions.Deny)
	s.Permissions.Ask = appendNew(s.Permissions.Ask, o.Permissions.Ask)
	set(&s.Permissions.DefaultMode, o.Permissions.DefaultMode)
	s.Permissions.ModeRules = append(s.Permissions.ModeRules, o.Permissions.ModeRules...)
	set(&s.Models.Explore, o.Models.Explore)
	set(&s.Models.Plan, o.Models.Plan)
	set(&s.Effort.Plan, o.Effort.Plan)
	set(&s.Effort.Implement, o.Effort.Implement)
	p, q := &s.PlanMode, o.PlanMode
	set(&p.ModelCanEnter, q.ModelCanEnter)
	set(&p.ExploreAgentCount, q.ExploreAgentCount)
	set(&p.PlanAgentCount, q.PlanAgentCount)
	set(&p.Interview, q.Interview)
	set(&p.Variant, q.Variant)
	set(&p.ReminderTurns, q.ReminderTurns)
	set(&p.FullReminderEvery, q.FullReminderEvery)
	set(&p.FileNaming, q.FileNaming)
	set(&p.RemoveTodoWrite, q.RemoveTodoWrite)
	set(&p.Model, q.Model)
	set(&p.ScopeFence, q.ScopeFence)
	set(&p.ReturnAfterImplementation, q.ReturnAfterImplementation)
	p.Commands = appendNew(p.Commands, q.Commands)
	set(&s.Retry.MaxAttempts, o.Retry.MaxAttempts)
	set(&s.Context.Window, o.Context.Window)
	set(&s.Context.AutoCompactAt, o.Context.AutoCompactAt)
	e, f := &s.ShellEnvironment, o.ShellEnvironment
	set(&e.Inherit, f.Inherit)
	e.Exclude = appendNew(e.Exclude, f.Exclude)
	e.Include = appendNew(e.Include, f.Include)
	for k, v := range f.Set {
		if e.Set == nil {
			e.Set = map[string]string{}
		}
		e.Set[k] = v
	}
	s.TrustedFolders = appendNew(s.TrustedFolders, o.TrustedFolders)
	set(&s.Sandbox.Required, o.Sandbox.Required)
	set(&s.Sandbox.AllowUnsandboxed, o.Sandbox.AllowUnsandboxed)
	set(&s.Sandbox.Network, o.Sandbox.Network)
	s.Sandbox.Writable = append(s.Sandbox.Writable, o.Sandbox.Writable...)
	set(&s.Network.IdleTimeout, o.Network.IdleTimeout)
	set(&s.Files.MaxWriteMiB, o.Files.MaxWriteMiB)
	set(&s.Team.Mailbox, o.Team.Mailbox)
	for name, srv := range o.MCPServers {
		if s.MCPServers == nil {
			s.MCPServers = map[string]MCPServer{}
		}
		s.MCPServers[name] = srv
	}
	for ev, groups := range o.Hooks {
		if s.Hooks == nil {
			s.Hooks = map[string][]HookGroup{}
		}
		s.Hooks[ev] = append(s.Hooks[ev], groups...)
	}
}

// projectSandbox keeps from a project settings file only the sandbox
// settings that tighten it, and says what it dropped.
func projectSandbox(file string, s *Settings) []Warning {
	if !s.Sandbox.loosens() {
		return nil
	}
	var w []Warning
	drop := func(name string, p **bool, loose bool) {
		if *p != nil && **p == loose {
			*p = nil
			w = append(w, Warning{File: file, Msg: fmt.Sprintf("setting \"sandbox.%s\" ignored: a project's settings may tighten the sandbox, not loosen it (set it in your own settings.json)", name)})
		}
	}
	drop("allowUnsandboxed", &s.Sandbox.AllowUnsandboxed, true)
	drop("network", &s.Sandbox.Network, true)
	drop("required", &s.Sandbox.Required, false)
	if len(s.Sandbox.Writable) > 0 {
		s.Sandbox.Writable = nil
		w = append(w, Warning{File: file, Msg: "setting \"sandbox.writable\" ignored: a project's settings may tighten the sandbox, not loosen it (set it in your own settings.json)"})
	}
	return w
}

// projectFiles drops a project's bound on written files when it is above
// the default: a repository may make the tools stricter, not looser.
func projectFiles(file string, s *Settings) []Warning {
	if m := s.Files.MaxWriteMiB; m != nil && *m > DefaultMaxWriteMiB {
		s.Files.MaxWriteMiB = nil
		return []Warning{{File: file, Msg: fmt.Sprintf("setting \"files.maxWriteMiB\" ignored: a project's settings may lower it, not raise it above %d (set it in your own settings.json)", DefaultMaxWriteMiB)}}
	}
	return nil
}

func set[T any](dst **T, src *T) {
	if src != nil {
		*dst = src
	}
}

func appendNew(dst, src []string) []string {
	for _, v := range src {
		dup := false
		for _, have := range dst {
			if have == v {
				dup = true
				break
			}
		}
		if !dup {
			dst = append(dst, v)
		}
	}
	return dst
}
