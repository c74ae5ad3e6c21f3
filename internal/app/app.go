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
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/agent"
	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/sandbox"
	"github.com/ponder-agent/ponder/internal/session"
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
	Allowed         []string
	Disallowed      []string
	MaxTurns        int

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
	// Asker answers questions; nil uses the app's Broker, whose questions
	// are published as events.
	Asker permission.Asker
	// Sink receives every event synchronously, in order, besides the bus.
	Sink func(event.Event)

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
}

// App is one running session.
type App struct {
	opts   Options
	Config *config.Config
	// Dir is the working directory: relative paths and commands start
	// there. Root is the project root it belongs to (see
	// config.FindRoot): settings, rules and the plans directory are the
	// project's.
	Dir    string
	Root   string
	ID     string
	Models Models

	Bus      *event.Bus
	Broker   *permission.Broker
	Perm     *permission.Engine
	Plan     *planmode.Session
	Provider llm.Provider
	Tools    *tool.Registry
	Log      *session.Writer
	Store    session.Store
	// Sandbox is the OS sandbox commands run in when they must.
	Sandbox *sandbox.Sandbox
	// Shells are the commands running in the background.
	Shells *builtin.Shells

	// Warnings collected while starting (settings, transcript).
	Warnings []string
	// infos are things worth telling at start that are not problems.
	infos []string
	// Resumed says the session continues an earlier one.
	Resumed bool

	// sessionLock keeps other processes out of this session's transcript.
	sessionLock *session.Lock
	// work is the turns and compactions in progress, for Close to stop.
	work running

	mu        sync.Mutex
	launcher  *launcher
	main      *agent.Agent
	env       *tool.Env
	pending   *session.Pending
	lastState []byte
	system    string
	asker     permission.Asker
}

// New builds a session from opts: a new one, or a resumed or forked one.
func New(opts Options) (*App, error) {
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
	a := &App{opts: opts, Config: cfg, Dir: dir, Root: cfg.ProjectDir, Bus: event.NewBus(), Store: session.NewStore(cfg.ConfigDir, dir)}
	for _, w := range cfg.Warnings {
		a.Warnings = append(a.Warnings, "settings: "+w.String())
	}
	if n := trustNotice(cfg); n != "" {
		a.Warnings = append(a.Warnings, n)
	}
	if opts.LLM != nil {
		a.Provider = opts.LLM
		a.Models = pickModels(opts.LLM.Name(), modelFlags{opts.Model, opts.ExploreModel, opts.PlanModel}, cfg)
	} else {
		name, err := pickProvider(opts.Provider, cfg)
		if err != nil {
			return nil, err
		}
		if a.Provider, err = newProvider(name, cfg, opts.HTTPClient); err != nil {
			return nil, err
		}
		a.Models = pickModels(name, modelFlags{opts.Model, opts.ExploreModel, opts.PlanModel}, cfg)
	}
	a.Broker = permission.NewBroker(func(q permission.Question) { a.emit(event.QuestionAsked{Question: q}) })
	a.asker = opts.Asker
	if a.asker == nil {
		a.asker = a.Broker
	}
	if err := a.buildPermissions(); err != nil {
		return nil, err
	}
	if err := a.openSandbox(); err != nil {
		return nil, err
	}
	a.Shells = builtin.NewShells()
	if err := a.open(); err != nil {
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
	if ap, ok := e.(event.PlanApproved); ok && a.Log != nil {
		if plan, ok := a.Plan.ReadPlan(""); ok {
			_ = a.Log.Append(session.Entry{Type: session.TypePlanSnapshot, Plan: &session.PlanSnapshot{
				Slug: a.Plan.Slug(), Path: ap.PlanFile, Content: plan, Approved: true}})
		}
	}
	if a.opts.Sink != nil {
		a.opts.Sink(e)
	}
	a.Bus.Publish(e)
}

// Emit publishes an event on behalf of a front end (a notice, say).
func (a *App) Emit(e event.Event) { a.emit(e) }

// buildPermissions builds the engine from the rules of each settings file
// (as they count: an untrusted project's allow rules are gone already) and
// of the command line, each rule knowing where it was written.
func (a *App) buildPermissions() error {
	rules := permission.Rules{Allow: a.opts.Allowed, Deny: a.opts.Disallowed}
	for _, l := range a.Config.Layers {
		src := map[config.Scope]permission.Source{config.ScopeUser: permission.SourceUser, config.ScopeProject: permission.SourceProject, config.ScopeLocal: permission.SourceLocal, config.ScopeOuter: permission.SourceProject}[l.Scope]
		p := l.Settings.Permissions
		rules.Sets = append(rules.Sets, permission.RuleSet{Source: src, File: l.File, Root: l.Root, Allow: p.Allow, Ask: p.Ask, Deny: p.Deny})
	}
	home, _ := os.UserHomeDir()
	eng, err := permission.NewEngine(rules, a.Root, home)
	if err != nil {
		return &UsageError{Msg: "permission rules: " + err.Error()}
	}
	for _, w := range eng.Warnings() {
		a.Warnings = append(a.Warnings, "permission rules: "+w)
	}
	a.Perm = eng
	return nil
}

// planConfig is the plan-mode configuration from settings.
func (a *App) planConfig() planmode.Config {
	s := a.Config.Settings
	return planmode.Config{
		ConfigDir:         a.Config.ConfigDir,
		ProjectDir:        a.Root,
		PlansDirectory:    config.Str(s.PlansDirectory, ""),
		FileNaming:        config.Str(s.PlanMode.FileNaming, "words"),
		ReminderTurns:     config.Int(s.PlanMode.ReminderTurns, 5),
		FullReminderEvery: config.Int(s.PlanMode.FullReminderEvery, 5),
		ExploreAgents:     a.Config.ExploreAgentCount(),
		PlanAgents:        a.Config.PlanAgentCount(),
		Interview:         a.Config.Interview(),
		Variant:           config.Str(s.PlanMode.Variant, "full"),
		BypassAllowed:     a.bypassAllowed(),
		HasTaskTool:       !slices.Contains(a.opts.Disallowed, "Task"),
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
	log := a.Log
	a.mu.Unlock()
	if !same && log != nil {
		_ = log.Append(session.Entry{Type: session.TypeState, State: data})
	}
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
