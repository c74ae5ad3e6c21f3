package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/agent"
	"github.com/ponder-agent/ponder/internal/agentdef"
	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/session"
	"github.com/ponder-agent/ponder/internal/tool"
	"github.com/ponder-agent/ponder/internal/tool/sessiontool"
)

const (
	// maxParallelAgents bounds the subagents running at once.
	maxParallelAgents = 10
	// maxAgentRequests bounds one subagent's model requests.
	maxAgentRequests = 60
)

// launcher runs subagents for the Task tool.
type launcher struct {
	a *App
	// loaded are the definitions read; defs the same, judged (see judge).
	loaded []agentdef.Definition
	defs   *agentdef.Set
	sem    chan struct{}
}

func newLauncher(a *App) *launcher {
	defs, problems := agentdef.LoadSession(agentdef.Sources{
		UserDir:        filepath.Join(a.cfg.ConfigDir, "agents"),
		ProjectDir:     filepath.Join(a.root, ".ponder", "agents"),
		ProjectTrusted: a.cfg.Trusted,
	})
	for _, p := range problems {
		a.warnings = append(a.warnings, "skipped "+p.Error())
	}
	return &launcher{a: a, loaded: defs, sem: make(chan struct{}, maxParallelAgents)}
}

// judge settles which agent types are read-only, from the kinds the
// session's tools declare.
func (l *launcher) judge(tools map[string]permission.Kind) {
	l.defs = agentdef.NewSet(agentdef.Judge(l.loaded, tools)...)
}

// Definitions lists the launchable agent types.
func (l *launcher) Definitions() []agentdef.Definition { return l.defs.All() }

// Launch runs one agent to the end. Cancelling ctx (the parent's turn)
// stops it at once.
func (l *launcher) Launch(ctx context.Context, req sessiontool.Launch) (sessiontool.Outcome, error) {
	def, ok := l.defs.Get(req.Type)
	if !ok {
		return sessiontool.Outcome{}, fmt.Errorf("unknown agent type %q", req.Type)
	}
	select {
	case l.sem <- struct{}{}:
		defer func() { <-l.sem }()
	case <-ctx.Done():
		return sessiontool.Outcome{}, ctx.Err()
	}
	a := l.a
	id := newAgentID()
	start := time.Now()
	a.emit(event.AgentStarted{ParentToolID: req.ParentCallID, AgentID: id, Type: def.Name, Description: req.Description})
	log, err := session.Create(a.store.AgentPath(a.id, id), session.Entry{SessionID: a.id, Cwd: a.dir, AgentID: id, AgentType: def.Name})
	if err != nil {
		return sessiontool.Outcome{}, err
	}
	defer log.Close()
	log.OnRestore(a.warnRestored)

	ag := agent.New(l.config(def, id, log), l.history(def))
	res, runErr := ag.Run(ctx, req.Prompt)
	out := sessiontool.Outcome{AgentID: id, Text: res.Text, Tokens: res.Usage.InputTokens + res.Usage.OutputTokens, Took: time.Since(start)}
	for _, m := range ag.History() {
		out.ToolCalls += len(m.ToolUses())
	}
	done := event.AgentFinished{ParentToolID: req.ParentCallID, AgentID: id, ToolCalls: out.ToolCalls, Tokens: out.Tokens, Duration: out.Took}
	if runErr == nil && res.StopReason == agent.StopInterrupted {
		runErr = ctx.Err()
	}
	if runErr == nil && res.StopReason == agent.StopMaxTurns {
		out.Text += fmt.Sprintf("\n\n(The agent stopped after %d model requests before finishing.)", maxAgentRequests)
	}
	if runErr != nil {
		done.Error = runErr.Error()
	}
	a.emit(done)
	return out, runErr
}

// config builds the agent's configuration: its own tools, enforced by the
// permission engine (tools outside its set are denied, and a read-only
// agent may only read), its model and prompt.
func (l *launcher) config(def agentdef.Definition, id string, log *session.Writer) agent.Config {
	a := l.a
	all := a.tools.Names()
	allowed := def.ToolSet(all)
	available := func(t tool.Tool, mode permission.Mode) bool {
		return slices.Contains(allowed, t.Name()) && a.available(t, mode)
	}
	var reminders func() []planmode.Reminder
	if def.ReadOnly {
		reminders = func() []planmode.Reminder {
			return []planmode.Reminder{{Kind: "read_only_agent", Text: agentdef.ReadOnlyReminder}}
		}
	}
	return agent.Config{
		ID:          id,
		Type:        def.Name,
		Provider:    a.provider,
		Model:       l.model(def),
		System:      agentSystemPrompt(def, a.dir, a.opts.Now()),
		MaxTurns:    maxAgentRequests,
		Tools:       a.tools,
		Available:   available,
		Env:         &tool.Env{Dir: a.dir, AgentID: id, Files: tool.NewFileTracker(), Changes: a.checkpoints, Editor: a.opts.Editor, MaxWrite: a.maxWrite()},
		Perm:        a.perm,
		Plan:        a.plan,
		Ask:         a.asker,
		ReadOnly:    def.ReadOnly,
		DeniedTools: def.Denied(all),
		Reminders:   reminders,
		Emit:        a.emit,
		Log:         log,
		Hooks:       a.hooks,
		Guard:       a.guard,
	}
}

// model resolves a definition's model role.
func (l *launcher) model(def agentdef.Definition) func(permission.Mode) string {
	a := l.a
	switch def.Model {
	case "", agentdef.ModelInherit:
		return a.modelFor
	case agentdef.ModelFast:
		return func(permission.Mode) string {
			a.mu.Lock()
			defer a.mu.Unlock()
			return a.models.Explore
		}
	}
	name := def.Model
	return func(permission.Mode) string { return name }
}

// history is where an agent starts: nothing, or for agents that fork the
// context, a copy of the main conversation without its reminders and
// without the unanswered calls of its last message (the Task call among
// them).
func (l *launcher) history(def agentdef.Definition) []llm.Message {
	if !def.ForkContext {
		return nil
	}
	hist := l.a.mainAgent().History()
	if n := len(hist); n > 0 && hist[n-1].Role == llm.RoleAssistant && len(hist[n-1].ToolUses()) > 0 {
		hist = hist[:n-1]
	}
	out := make([]llm.Message, 0, len(hist))
	for _, m := range hist {
		var blocks []llm.Block
		for _, b := range m.Content {
			if b.Reminder == "" {
				blocks = append(blocks, b)
			}
		}
		if len(blocks) > 0 {
			out = append(out, llm.Message{Role: m.Role, Content: blocks})
		}
	}
	return out
}

// agentSystemPrompt is the definition's prompt with the environment.
func agentSystemPrompt(def agentdef.Definition, dir string, now time.Time) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(def.Prompt))
	fmt.Fprintf(&b, "\n\n# Environment\n- Working directory: %s\n- Git repository: %v\n- Today's date: %s\n", dir, isGitRepo(dir), now.Format("2006-01-02"))
	return b.String()
}

func newAgentID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return "a" + hex.EncodeToString(b[:])
}
