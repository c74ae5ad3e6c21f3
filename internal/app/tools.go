package app

import (
	"encoding/json"

	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/session"
	"github.com/ponder-agent/ponder/internal/shellenv"
	"github.com/ponder-agent/ponder/internal/todo"
	"github.com/ponder-agent/ponder/internal/tool"
	"github.com/ponder-agent/ponder/internal/tool/builtin"
	"github.com/ponder-agent/ponder/internal/tool/sessiontool"
)

// buildTools registers every tool the main conversation may be offered.
func (a *App) buildTools() *tool.Registry {
	return tool.NewRegistry(
		builtin.NewRead(),
		builtin.NewWrite(),
		builtin.NewEdit(),
		builtin.NewGlob(),
		builtin.NewGrep(),
		builtin.NewLS(),
		// git refreshes its index during read-only commands such as
		// git status unless told not to; that write must not happen in
		// plan mode, and is pointless elsewhere.
		builtin.NewBash(builtin.BashOptions{Env: []string{"GIT_OPTIONAL_LOCKS=0"}, Environment: a.shellPolicy(), Sandbox: a.Sandbox, Shells: a.Shells, Denied: a.Perm.DeniedPaths}),
		builtin.NewBashOutput(a.Shells),
		builtin.NewKillShell(a.Shells),
		builtin.NewWebFetch(nil),
		sessiontool.NewTodoWrite(a.todoPath, a.todosSaved),
		sessiontool.NewAskUserQuestion(a.asker),
		sessiontool.NewEnterPlanMode(a.Plan, a.asker),
		sessiontool.NewExitPlanMode(a.Plan, a.asker),
		sessiontool.NewTask(a.launcher),
	)
}

// shellPolicy is the shellEnvironment setting as package shellenv takes it.
func (a *App) shellPolicy() shellenv.Policy {
	e := a.Config.Settings.ShellEnvironment
	return shellenv.Policy{Inherit: config.Str(e.Inherit, "all"), Exclude: e.Exclude, Include: e.Include, Set: e.Set}
}

// offer decides which tools the model sees in a mode. EnterPlanMode and
// AskUserQuestion need somebody to answer them, so a run nobody attends
// does not get them; planMode.modelCanEnter=false leaves entering plan
// mode to the user; planMode.removeTodoWrite drops TodoWrite in plan mode;
// a tool disallowed by name is not offered at all.
func (a *App) offer(t tool.Tool, mode permission.Mode) bool {
	for _, d := range a.opts.Disallowed {
		if d == t.Name() {
			return false
		}
	}
	pm := a.Config.Settings.PlanMode
	switch t.Name() {
	case "EnterPlanMode":
		return a.opts.Interactive && config.Bool(pm.ModelCanEnter, true)
	case "AskUserQuestion":
		return a.opts.Interactive
	case "TodoWrite":
		return mode != permission.ModePlan || !config.Bool(pm.RemoveTodoWrite, false)
	}
	return true
}

// offeredNames lists the tools offered in a mode.
func (a *App) offeredNames(mode permission.Mode) map[string]bool {
	out := map[string]bool{}
	for _, t := range a.Tools.All() {
		if a.offer(t, mode) {
			out[t.Name()] = true
		}
	}
	return out
}

func (a *App) todoPath(agentID string) string {
	return todo.Path(a.Config.ConfigDir, a.ID, agentID)
}

// todosSaved records the main conversation's todo list in the transcript,
// so it moves with resume and fork.
func (a *App) todosSaved(agentID string, items []todo.Item) {
	if agentID != "" {
		return
	}
	if data, err := json.Marshal(items); err == nil {
		_ = a.Log.Append(session.Entry{Type: session.TypeTodos, Todos: data})
	}
}
