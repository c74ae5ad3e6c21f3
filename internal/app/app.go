// Package app is ponder's composition root: it builds a session (settings,
// provider, permission engine, plan mode, tools, transcript, main agent)
// from options, and is the one place front ends call to send input, change
// the mode and answer questions. It picks every implementation; nothing
// below it knows which front end runs.
package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/agent"
	"github.com/ponder-agent/ponder/internal/atomicfile"
	"github.com/ponder-agent/ponder/internal/checkpoint"
	"github.com/ponder-agent/ponder/internal/commands"
	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/hooks"
	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/mcpclient"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planbar"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/proctree"
	"github.com/ponder-agent/ponder/internal/runguard"
	"github.com/ponder-agent/ponder/internal/sandbox"
	"github.com/ponder-agent/ponder/internal/session"
	"github.com/ponder-agent/ponder/internal/skills"
	"github.com/ponder-agent/ponder/internal/tool"
	"github.com/ponder-agent/ponder/internal/tool/builtin"
)

// Options are what a front end asks for.
type Options struct {
	// Dir is the project directory (default: the working directory).
	Dir string
	// ConfigDir overrides $PONDER_CONFIG_DIR and ~/.ponder.
	ConfigDir string
	// Getenv reads the environment (default os.Getenv).
	Getenv func(string) string

	Provider string
	Model    string
	// ExploreModel and PlanModel override the settings for the fast
	// model of Explore agents and the model used in plan mode.
	ExploreModel string
	PlanModel    string
	// PlanEffort is --plan-effort: how hard the model thinks in plan
	// mode (low, medium, high), over the settings' effort.plan.
	PlanEffort string
	// Mode is --permission-mode ("" keeps the settings' default, or the
	// resumed session's mode).
	Mode string
	// BypassAllowed is --dangerously-skip-permissions.
	BypassAllowed bool
	// Trust is --trust: the project's settings count in full for this
	// run. RememberedTrust lets the user's earlier answer to the trust
	// question count (the interactive interface asks it; headless runs
	// do not consult it).
	Trust           bool
	RememberedTrust bool
	// Settings is --settings: a settings file, or JSON, that counts as
	// the user's own for this run, after every settings file.
	Settings string
	// AddDirs are --add-dir: directories outside the project whose files
	// the session may read and edit like the project's.
	AddDirs []string
	// Debug, when set, receives ponder's debug log (--debug).
	Debug      io.Writer
	Allowed    []string
	Disallowed []string
	MaxTurns   int
	// Tools, when not nil, are the only built-in tools the session has
	// (--tools): no other is offered, and the engine refuses a call of
	// one not offered. An empty list leaves none. MCP tools come with
	// their servers, whatever it says.
	Tools []string

	// Resume names a session to continue; Continue picks the latest.
	Resume   string
	Continue bool
	// Fork continues a copy under a new id.
	Fork bool
	// SessionID is the id of a new session.
	SessionID string

	// Interactive says somebody can answer questions (TUI, a control
	// channel, the SDK). Only then is EnterPlanMode offered, so the model
	// cannot enter a plan mode nobody could approve its way out of.
	Interactive bool
	// PlanApproval answers plan approvals in a run that is not
	// interactive (--plan-approval): PlanPending (the default) or an
	// approval option. Every other question there gets no answer, so a
	// call that needs a yes is refused.
	PlanApproval string
	// Asker answers questions instead; nil uses, for an interactive
	// session, its broker, whose questions are published as events.
	Asker permission.Asker
	// DontAsk refuses every call that would ask, without asking (the
	// Claude Agent SDK's dontAsk mode); other questions are asked.
	DontAsk bool
	// PlanName names the plan file of a new session (without .md), in
	// place of a made-up one; for demonstrations and tests.
	PlanName string
	// Sink receives every event synchronously, in order, besides the bus.
	Sink func(event.Event)
	// Editor, when set, is the user's editor: file tools read its buffers
	// and write through it, after the permission engine has decided.
	Editor Editor

	// SystemPrompt, when set, replaces ponder's system prompt (a host
	// that brings its own); AppendSystemPrompt is added at its end.
	// Plan mode's rules do not depend on either: they are enforced, and
	// explained to the model in the conversation.
	SystemPrompt       *string
	AppendSystemPrompt string
	// Hooks run at a session's moments (see event.HookMatcher).
	Hooks []event.HookMatcher

	// HTTPClient overrides the provider's HTTP client.
	HTTPClient *http.Client
	// LLM, when set, is used instead of a provider built from the
	// environment (in-process fakes for the demo and benchmarks).
	LLM llm.Provider
	// Now overrides the clock.
	Now func() time.Time
	// Sandbox confines commands; nil picks the best one available (or
	// the one $PONDER_SANDBOX names).
	Sandbox *sandbox.Sandbox
	// Team makes the session a team's lead or one of its teammates.
	Team *TeamOptions

	// MCPConfig are the --mcp-config values: JSON objects or files in
	// the {"mcpServers": {...}} shape. StrictMCPConfig starts only those,
	// ignoring the servers of every settings file and .mcp.json.
	MCPConfig       []string
	StrictMCPConfig bool
	// HostMCP says the front end can carry MCP messages to servers the
	// program driving ponder serves itself (type sdk): stream-json
	// input with a control channel. See AttachMCPHost.
	HostMCP bool
	// ReadOnly holds the main conversation to reading, as a read-only
	// agent is held, whatever the mode (answering questions for another
	// agent: nothing may change).
	ReadOnly bool
}

// App is one running session. Front ends see it through its methods
// (frontend.go) and the events it publishes, nothing more.
type App struct {
	opts Options
	cfg  *config.Config
	// dir is the working directory: relative paths and commands start
	// there. root is the project root it belongs to (see
	// config.FindRoot): settings, rules and the plans directory are the
	// project's.
	dir    string
	root   string
	id     string
	models Models
	// aliases are the short model names of the provider in use.
	aliases modelAliases
	// addDirs are the directories of --add-dir, absolute and checked.
	addDirs []string
	// debug is the debug log, nil when off.
	debug *debugLog
	// meter adds up the run's usage and cost by model.
	meter *meter
	// commandWarned are the project commands whose ignored front matter
	// the user was told of in this run.
	commandWarned map[string]bool
	// planEffort and implementEffort are how hard the model thinks in
	// plan mode and in the others (see pickEffort).
	planEffort, implementEffort llm.Effort

	bus      *event.Bus
	broker   *permission.Broker
	perm     *permission.Engine
	plan     *planmode.Session
	provider llm.Provider
	tools    *tool.Registry
	log      *session.Writer
	store    session.Store
	// sandbox is the OS sandbox commands run in when they must.
	sandbox *sandbox.Sandbox
	// sandboxPolicy is what the permission engine is told of it.
	sandboxPolicy permission.SandboxPolicy
	// shells are the commands running in the background.
	shells *builtin.Shells
	// checkpoints keep what files held before each turn changed them.
	checkpoints *checkpoint.Store
	// commands are the custom slash commands (slash.go).
	commands []commands.Command
	// turnModel is the model a custom command asked for, for its turn.
	turnModel string
	// files is the listing @-mentions complete from (complete.go).
	files fileList
	// skills are the skills the model is offered (skills.go).
	skills []skills.Skill
	// mcp owns the session's MCP servers (nil when there are none).
	mcp *mcpclient.Manager
	// hostMCPSaid are the host's MCP servers whose failure was said.
	hostMCPSaid map[string]bool
	// stepsDue says the approved plan's step reminder is due (carry.go).
	stepsDue stepsDueFlag
	// staleSaid is the last warning about a pending plan's changed files.
	staleSaid string

	// warnings collected while starting (settings, transcript).
	warnings []string
	// infos are things worth telling at start that are not problems.
	infos []string
	// resumed says the session continues an earlier one.
	resumed bool

	// sessionLock keeps other processes out of this session's transcript.
	sessionLock *session.Lock
	// work is the turns and compactions in progress, for Close to stop.
	work running

	mu       sync.Mutex
	launcher *launcher
	main     *agent.Agent
	env      *tool.Env
	pending  *session.Pending
	// approved is what the last approval changed besides the mode (model,
	// grants), for a conversation cleared to implement it.
	approved *planmode.Approval
	// planTask is the task /plan was given, for the turn that sends it
	// (turnstart.go).
	planTask  *planTask
	lastState []byte
	system    string
	// ownSystem is ponder's own system prompt, before a front end's
	// replacement or addition.
	ownSystem string
	asker     permission.Asker

	// lead is set when the session leads a team, mate when it is a
	// teammate (team.go).
	lead *leadState
	mate *mateState
	// hooks are the session's hooks, from Options and front ends;
	// startHooksRan says the SessionStart hooks ran.
	hooks         *hooks.Registry
	guard         *runguard.Guard
	startHooksRan bool
	// observing counts the Notification hooks running, which Close
	// lets finish for a moment.
	observing observers
	// freeHooks are the command hooks running outside the sandbox,
	// which plan mode stops as it begins.
	freeHooks planbar.Bar
}

// New builds a session from opts: a new one, or a resumed or forked one.
func New(opts Options) (*App, error) {
	if err := CheckPlanApproval(opts.PlanApproval); err != nil {
		return nil, &UsageError{Msg: err.Error()}
	}
	if !validPlanName(opts.PlanName) {
		return nil, &UsageError{Msg: fmt.Sprintf("plan name %q: use lower-case letters, digits, - and _", opts.PlanName)}
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	dir, err := workDir(opts)
	if err != nil {
		return nil, err
	}
	cfg, err := loadConfig(opts, dir)
	if err != nil {
		return nil, err
	}
	addDirs, err := checkAddDirs(opts.AddDirs, dir)
	if err != nil {
		return nil, err
	}
	if err := prepareTeam(&opts, cfg); err != nil {
		return nil, err
	}
	a := &App{opts: opts, cfg: cfg, dir: dir, root: cfg.ProjectDir, bus: event.NewBus(), store: session.NewStore(cfg.ConfigDir, dir), addDirs: addDirs}
	if err := ensureConfigDir(cfg.ConfigDir, a.store.Dir); err != nil {
		return nil, err
	}
	if n := atomicfile.Sweep(); n > 0 {
		a.infos = append(a.infos, fmt.Sprintf("removed %d temporary files that an earlier ponder, killed while writing, left behind", n))
	}
	procs := filepath.Join(cfg.ConfigDir, "procs")
	if n := proctree.Sweep(procs); n > 0 {
		a.infos = append(a.infos, fmt.Sprintf("stopped %d processes that the commands of an earlier ponder, killed before it could stop them, left running", n))
	}
	proctree.Default().RecordIn(procs)
	for _, w := range cfg.Warnings {
		a.warnings = append(a.warnings, "settings: "+w.String())
	}
	if n := trustNotice(cfg); n != "" {
		a.warnings = append(a.warnings, n)
	}
	if opts.LLM != nil {
		a.provider = opts.LLM
		a.models = pickModels(opts.LLM.Name(), modelFlags{opts.Model, opts.ExploreModel, opts.PlanModel}, cfg)
	} else {
		name, err := pickProvider(opts.Provider, cfg)
		if err != nil {
			return nil, err
		}
		if a.provider, err = newProvider(name, cfg, opts.HTTPClient); err != nil {
			return nil, err
		}
		a.models = pickModels(name, modelFlags{opts.Model, opts.ExploreModel, opts.PlanModel}, cfg)
	}
	// Short names (--model opus) become the provider's model ids, here
	// for what the user sees and in every request for what else names one.
	a.aliases = aliasesFor(a.provider.Name(), cfg)
	a.models = a.aliases.resolveModels(a.models)
	if a.debug = newDebugLog(opts.Debug); a.debug != nil {
		a.provider = debugProvider{Provider: a.provider, log: a.debug}
	}
	a.meter = newMeter(cfg, a.aliases)
	a.provider = aliasProvider{Provider: meterProvider{Provider: a.provider, m: a.meter}, aliases: a.aliases}
	if err := a.pickEffort(opts.PlanEffort, cfg); err != nil {
		return nil, err
	}
	a.broker = permission.NewBroker(
		a.questionAsked,
		func(id, how string) { a.emit(event.QuestionClosed{ID: id, How: how}) })
	switch {
	case opts.isTeammate():
		a.asker = teammateAsker{a: a}
	case opts.Asker != nil:
		a.asker = opts.Asker
	case opts.Interactive:
		a.asker = a.broker
	default:
		a.asker = policyAsker{policy: opts.PlanApproval}
	}
	a.asker = hookAsker{a: a, next: a.asker}
	if opts.DontAsk {
		a.asker = dontAsk{next: a.asker}
	}
	a.hooks = hooks.New(a.hookBase)
	a.guard = runGuard(a.dir, a.root, a.cfg.ConfigDir)
	for _, m := range opts.Hooks {
		if err := a.AddHook(m); err != nil {
			return nil, &UsageError{Msg: err.Error()}
		}
	}
	if err := a.openSandbox(); err != nil {
		return nil, err
	}
	if err := a.addSettingsHooks(); err != nil {
		return nil, err
	}
	a.shells = builtin.NewShells()
	a.loadCommands()
	a.loadSkills()
	if err := a.open(); err != nil {
		return nil, err
	}
	a.debugSetup()
	if err := a.openTeam(); err != nil {
		_ = a.Close()
		return nil, err
	}
	return a, nil
}

// workDir is the session's working directory, absolute.
func workDir(opts Options) (string, error) {
	dir := opts.Dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		dir = wd
	}
	return filepath.Abs(dir)
}

// emit sends an event to the sink and the bus. An approved plan is also
// recorded in the transcript, so that it can be restored later even if
// every other snapshot is lost.
func (a *App) emit(e event.Event) {
	a.debug.event(e)
	if mc, ok := e.(event.ModeChanged); ok {
		a.modeChanged(mc)
		a.holdTeammates()
		a.recordMateMode(mc.To)
	}
	if ap, ok := e.(event.PlanApproved); ok && a.log != nil {
		if plan, ok := a.plan.ReadPlan(""); ok {
			cause := session.CauseApproved
			if ap.Edited {
				cause = session.CauseEdited
			}
			_ = a.log.Append(session.Entry{Type: session.TypePlanSnapshot, Plan: &session.PlanSnapshot{
				Slug: a.plan.Slug(), Path: ap.PlanFile, Content: plan, Approved: true, Cause: cause}})
		}
	}
	if rj, ok := e.(event.PlanRejected); ok && a.log != nil && !rj.Interrupted {
		// A feedback round is a version of its own, with the user's
		// edits if they made any.
		if plan, ok := a.plan.ReadPlan(""); ok {
			_ = a.log.Append(session.Entry{Type: session.TypePlanSnapshot, Plan: &session.PlanSnapshot{
				Slug: a.plan.Slug(), Path: rj.PlanFile, Content: plan, Cause: session.CauseSentBack}})
		}
	}
	a.planTransitionHooks(e)
	if a.opts.Sink != nil {
		a.opts.Sink(e)
	}
	a.bus.Publish(e)
}

// Emit publishes an event on behalf of a front end (a notice, say).
func (a *App) Emit(e event.Event) { a.emit(e) }

// buildPermissions builds the engine from the rules of each settings file
// (as they count: an untrusted project's allow rules are gone already) and
// of the command line, each rule knowing where it was written, and from
// the kinds the session's tools declare; then tells it about the sandbox.
func (a *App) buildPermissions() error {
	for _, n := range a.opts.Tools {
		if _, ok := a.tools.Get(n); !ok {
			a.warnings = append(a.warnings, fmt.Sprintf("--tools: ponder has no tool named %q", n))
		}
	}
	rules := permission.Rules{Allow: a.opts.Allowed, Deny: a.opts.Disallowed, Tools: a.tools.Kinds()}
	for _, l := range a.cfg.Layers {
		src := map[config.Scope]permission.Source{config.ScopeUser: permission.SourceUser, config.ScopeProject: permission.SourceProject, config.ScopeLocal: permission.SourceLocal, config.ScopeOuter: permission.SourceProject, config.ScopeFlag: permission.SourceUser}[l.Scope]
		p := l.Settings.Permissions
		rules.Sets = append(rules.Sets, permission.RuleSet{Source: src, File: l.File, Root: l.Root, Allow: p.Allow, Ask: p.Ask, Deny: p.Deny})
		rules.Sets = append(rules.Sets, modeRuleSets(src, l.File, l.Root, l.Settings)...)
	}
	rules.Sets = append(rules.Sets, a.teamKeyRules())
	home, _ := os.UserHomeDir()
	eng, err := permission.NewEngine(rules, a.root, home)
	if err != nil {
		return &UsageError{Msg: "permission rules: " + err.Error()}
	}
	for _, w := range eng.Warnings() {
		a.warnings = append(a.warnings, "permission rules: "+w)
	}
	for _, d := range a.addDirs {
		eng.AddWorkspaceDir(d)
	}
	eng.SetSandbox(a.sandboxPolicy)
	// The user's settings define hooks too; a hook's allow never waves
	// a write to them through.
	eng.SetSettingsFiles([]string{filepath.Join(a.cfg.ConfigDir, "settings.json")})
	a.perm = eng
	return nil
}

// planConfig is the plan-mode configuration from settings. What the
// settings leave out is zero, and plan mode's own defaults apply.
func (a *App) planConfig() planmode.Config {
	s := a.cfg.Settings
	return planmode.Config{
		ConfigDir:         a.cfg.ConfigDir,
		ProjectDir:        a.root,
		PlansDirectory:    config.Str(s.PlansDirectory, ""),
		FileNaming:        config.Str(s.PlanMode.FileNaming, ""),
		ReminderTurns:     config.Int(s.PlanMode.ReminderTurns, 0),
		FullReminderEvery: config.Int(s.PlanMode.FullReminderEvery, 0),
		ExploreAgents:     a.cfg.ExploreAgentCount(),
		PlanAgents:        a.cfg.PlanAgentCount(),
		Interview:         a.cfg.Interview(),
		Variant:           config.Str(s.PlanMode.Variant, ""),
		BypassAllowed:     a.bypassAllowed(),
		NoScopeFence:      !a.cfg.ScopeFence(),
		Ceiling:           a.modeCeiling,
		HasTaskTool:       func() bool { return a.offers("Task", permission.ModePlan) },
		Now:               a.opts.Now,
		Logf: func(format string, args ...any) {
			a.emit(event.Notice{Level: "warning", Text: fmt.Sprintf(format, args...)})
		},
	}
}

func (a *App) bypassAllowed() bool {
	return a.opts.BypassAllowed || a.opts.Mode == string(permission.ModeBypass)
}

// persistState records the plan-mode state in the transcript when it
// changed.
func (a *App) persistState(st planmode.State) {
	data, err := json.Marshal(st)
	if err != nil {
		return
	}
	a.mu.Lock()
	same := bytes.Equal(data, a.lastState)
	if !same {
		a.lastState = data
	}
	log := a.log
	a.mu.Unlock()
	if !same && log != nil {
		_ = log.Append(session.Entry{Type: session.TypeState, State: data})
	}
}

// validPlanName reports whether a plan name given in Options may name a
// file in the plans directory.
func validPlanName(name string) bool {
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return len(name) <= 100
}

// newSessionID returns the requested id or a fresh one.
func newSessionID(requested string) (string, error) {
	if requested == "" {
		return uuid.NewString(), nil
	}
	if _, err := uuid.Parse(requested); err != nil {
		return "", &UsageError{Msg: fmt.Sprintf("--session-id %q is not a UUID", requested)}
	}
	return requested, nil
}
