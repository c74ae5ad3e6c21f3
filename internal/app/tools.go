package app

import (
	"encoding/json"
	"slices"

	"github.com/ponder-agent/ponder/internal/agent"
	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/session"
	"github.com/ponder-agent/ponder/internal/shellenv"
	"github.com/ponder-agent/ponder/internal/todo"
	"github.com/ponder-agent/ponder/internal/tool"
	"github.com/ponder-agent/ponder/internal/tool/builtin"
	"github.com/ponder-agent/ponder/internal/tool/sessiontool"
	"github.com/ponder-agent/ponder/internal/tool/teamtool"
)

// buildTools registers every tool the main conversation may be offered.
func (a *App) buildTools() *tool.Registry {
	reg := tool.NewRegistry(
		builtin.NewRead(),
		builtin.NewWrite(),
		builtin.NewEdit(),
		builtin.NewGlob(),
		builtin.NewGrep(),
		builtin.NewLS(),
		// git refreshes its index during read-only commands such as
		// git status unless told not to; that write must not happen in
		// plan mode, and is pointless elsewhere.
		builtin.NewBash(builtin.BashOptions{Env: []string{"GIT_OPTIONAL_LOCKS=0"}, Environment: a.shellPolicy(), Sandbox: a.sandbox, Shells: a.shells, Denied: a.deniedPaths,
			Workspace: a.workspacePolicy}),
		builtin.NewBashOutput(a.shells),
		builtin.NewKillShell(a.shells),
		builtin.NewWebFetch(nil),
		sessiontool.NewTodoWrite(a.todoPath, a.todosSaved),
		sessiontool.NewAskUserQuestion(a.asker),
		sessiontool.NewEnterPlanMode(a.plan, a.asker),
		sessiontool.NewExitPlanMode(a.plan, a.asker, implementer{a}),
		sessiontool.NewTask(a.launcher),
		teamtool.NewSpawnTeammate(teamTools{a}),
		teamtool.NewSendMessage(teamTools{a}),
	)
	a.addSkillTool(reg)
	// MCP tools are named mcp__<server>__<tool>, so none replaces a
	// built-in tool.
	for _, t := range a.mcp.Tools() {
		reg.Add(t)
	}
	return reg
}

// shellPolicy is the shellEnvironment setting as package shellenv takes it.
func (a *App) shellPolicy() shellenv.Policy {
	e := a.cfg.Settings.ShellEnvironment
	return shellenv.Policy{Inherit: config.Str(e.Inherit, "all"), Exclude: e.Exclude, Include: e.Include, Set: e.Set}
}

// available says which tools the session has in a mode, before the
// permission rules: EnterPlanMode and AskUserQuestion need somebody to
// answer them, so a run nobody attends does not get them;
// planMode.modelCanEnter=false leaves entering plan mode to the user;
// planMode.removeTodoWrite drops TodoWrite in plan mode. What the model
// is offered is what the permission engine lets through of these (a tool
// a rule denies outright is not offered), and a call of anything else is
// refused by the engine.
func (a *App) available(t tool.Tool, mode permission.Mode) bool {
	// --tools is the set of ponder's own tools, as the Claude Agent
	// SDK's tools option is of the built-in ones: MCP tools come with
	// their servers (and a host's own server is often the only tool
	// it wants the model to have).
	if a.opts.Tools != nil && t.Kind() != permission.KindExternal && !slices.Contains(a.opts.Tools, t.Name()) {
		return false
	}
	pm := a.cfg.Settings.PlanMode
	switch t.Name() {
	case "EnterPlanMode":
		return (a.opts.Interactive || a.opts.isTeammate()) && config.Bool(pm.ModelCanEnter, true)
	case "SpawnTeammate":
		return a.opts.Team != nil && !a.opts.isTeammate()
	case "SendMessage":
		return a.opts.Team != nil
	case "AskUserQuestion":
		return a.opts.Interactive
	case "TodoWrite":
		return mode != permission.ModePlan || !config.Bool(pm.RemoveTodoWrite, false)
	}
	return true
}

// offeredNames lists the tools the main conversation is offered in a
// mode, as its agent computes them.
func (a *App) offeredNames(mode permission.Mode) []string {
	return agent.Names(agent.Offered(a.tools, a.available, a.perm, permission.NewContext(mode, nil, permission.Caller{})))
}

// userContext is the permission context of the user's own acts (an
// @mention, a completion, a rewind): those of the main conversation in
// the session's mode now.
func (a *App) userContext() permission.Context {
	return permission.NewContext(a.plan.Mode(), func() string { return a.plan.PlanFile("") }, permission.Caller{})
}

// offers reports whether the main conversation is offered a tool in a
// mode.
func (a *App) offers(name string, mode permission.Mode) bool {
	return a.perm != nil && slices.Contains(a.offeredNames(mode), name)
}

func (a *App) todoPath(agentID string) string {
	return todo.Path(a.cfg.ConfigDir, a.id, agentID)
}

// todosSaved records the main conversation's todo list in the transcript,
// so it moves with resume and fork.
func (a *App) todosSaved(agentID string, items []todo.Item) {
	if agentID != "" {
		return
	}
	if data, err := json.Marshal(items); err == nil {
		_ = a.log.Append(session.Entry{Type: session.TypeTodos, Todos: data})
	}
}

// deniedPaths are the paths the deny rules cover, for the kernel to keep
// every command from; none before the engine is built.
func (a *App) deniedPaths() permission.DeniedPaths {
	if a.perm == nil {
		return permission.DeniedPaths{}
	}
	return a.perm.DeniedPaths()
}
