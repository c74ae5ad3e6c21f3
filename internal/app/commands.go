package app

import (
	"errors"
	"os/exec"
	"strings"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/editor"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/proctree"
	"github.com/ponder-agent/ponder/internal/todo"
)

// PlanOutcome says what a /plan command did and what the front end should
// do next.
type PlanOutcome struct {
	// Message is shown to the user.
	Message string
	// Query, when set, is sent to the model at once (/plan <description>).
	Query string
	// Plan and PlanFile are set when the current plan should be shown.
	Plan     string
	PlanFile string
	// OpenEditor is set when the plan file should be opened in the editor.
	OpenEditor string
	// Refused says the command could not run now.
	Refused bool
}

// PlanCommand carries out /plan [open|description]: outside plan mode it
// enters plan mode (and with a description starts planning it); in plan
// mode it shows the plan, or opens it with "open". While a turn runs the
// mode must not change under the model, so the command is refused.
func (a *App) PlanCommand(args string, turnRunning bool) PlanOutcome {
	args = strings.TrimSpace(args)
	if a.plan.Mode() != permission.ModePlan {
		if turnRunning {
			return PlanOutcome{Refused: true, Message: "A turn is running. Wait for it to finish, or press Esc to interrupt it, then use /plan."}
		}
		if args != "" && args != "open" {
			a.plan.SetTaskHint(args)
		}
		a.plan.SetMode(permission.ModePlan, planmode.ViaSlash)
		out := PlanOutcome{Message: "Plan mode is on: ponder will explore and write a plan to " + a.plan.PlanFile("") + " before changing anything."}
		if args != "" && args != "open" {
			out.Query = args
		}
		return out
	}
	path := a.plan.PlanFile("")
	plan, ok := a.plan.ReadPlan("")
	if !ok || strings.TrimSpace(plan) == "" {
		return PlanOutcome{Message: "Already in plan mode. No plan written yet (it will be " + path + ")."}
	}
	if first, _, _ := strings.Cut(args, " "); first == "open" {
		return PlanOutcome{OpenEditor: path}
	}
	return PlanOutcome{Plan: plan, PlanFile: path}
}

// SetTaskHint tells the app the task about to be given, so that a plan
// file made when the session starts in plan mode is named after it.
func (a *App) SetTaskHint(task string) { a.plan.SetTaskHint(task) }

// EditorCommand returns the command that opens path in the user's editor,
// in the project directory, and a function to call once it has ended.
// Until then the editor counts as started on purpose, so the sweep for
// processes that commands leave behind never touches it.
func (a *App) EditorCommand(path string) (*exec.Cmd, func(), error) {
	cmd, err := editor.Command(path, a.opts.Getenv)
	if err != nil {
		return nil, nil, err
	}
	cmd.Dir = a.dir
	scope := proctree.Default().Begin()
	return cmd, scope.End, nil
}

// Clear starts a fresh conversation in the same session; the mode and the
// plan file stay.
func (a *App) Clear() {
	a.clearConversation()
	a.emit(event.Notice{Level: "info", Text: "Conversation cleared."})
}

// SetModel changes the main model from the next request on.
func (a *App) SetModel(name string) error {
	name = strings.TrimSpace(name)
	if name == "" {
		return errors.New("give a model name")
	}
	a.mu.Lock()
	a.models.Main = a.aliases.resolve(name)
	a.mu.Unlock()
	return nil
}

// Todos returns the main conversation's todo list.
func (a *App) Todos() ([]event.TodoItem, error) {
	return todo.Load(a.todoPath(""))
}

// Options returns the options the app was built with, so a front end can
// build another one (to resume a different session).
func (a *App) Options() Options { return a.opts }
