package app

import (
	"errors"
	"github.com/ponder-agent/ponder/internal/atomicfile"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/editor"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/plans"
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
	if args == "check" {
		return a.planCheckCommand()
	}
	if args == "diff" {
		return a.planDiffCommand()
	}
	if rest, ok := strings.CutPrefix(args, "save"); ok && (rest == "" || rest[0] == ' ') {
		return a.planSaveCommand(strings.TrimSpace(rest))
	}
	if a.plan.Mode() != permission.ModePlan {
		if turnRunning {
			return PlanOutcome{Refused: true, Message: "A turn is running. Wait for it to finish, or press Esc to interrupt it, then use /plan."}
		}
		if args != "" && args != "open" {
			a.plan.SetTaskHint(args)
			a.notePlanTask(args)
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

// planCheckCommand is /plan check: the conformance report of the
// approved plan, sent as an event (which front ends show) and written
// next to the plan.
func (a *App) planCheckCommand() PlanOutcome {
	r, err := a.CheckPlan()
	if err != nil {
		return PlanOutcome{Refused: true, Message: "No approved plan to check: approve a plan first."}
	}
	if r.ReportFile == "" {
		return PlanOutcome{Message: "The report could not be written next to the plan."}
	}
	return PlanOutcome{Message: "The report is in " + r.ReportFile + "."}
}

// planSaveCommand is /plan save PATH: a copy of the plan in the project
// (docs/plans/, say). It is the user's act, but no way around a rule:
// not in plan mode (which changes nothing but the plan), only inside the
// project, never over a file a deny rule covers or one that decides what
// runs, and never through a link.
func (a *App) planSaveCommand(path string) PlanOutcome {
	if path == "" {
		return PlanOutcome{Refused: true, Message: "Usage: /plan save PATH (a file in the project, such as docs/plans/feature.md)."}
	}
	if err := permission.PlanModeWrite(a.plan.Mode(), a.plan.PlanFile(""), path); err != nil {
		return PlanOutcome{Refused: true, Message: "Not saved: Plan mode is on (" + err.Error() + "); approve the plan (or leave plan mode) first, then /plan save."}
	}
	plan, ok := a.plan.ReadPlan("")
	if !ok || strings.TrimSpace(plan) == "" {
		return PlanOutcome{Refused: true, Message: "This session has no plan to save."}
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(a.dir, path)
	}
	path = filepath.Clean(path)
	if rel, err := filepath.Rel(a.root, path); err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return PlanOutcome{Refused: true, Message: path + " is outside the project; /plan save writes inside it."}
	}
	d := a.perm.Decide(permission.NewContext(permission.ModeAcceptEdits, nil, permission.Caller{}), permission.Access{Tool: "Write", Kind: permission.KindWrite, Paths: []string{path}})
	if d.Behavior != permission.Allow {
		return PlanOutcome{Refused: true, Message: "Not saved: " + d.Reason}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return PlanOutcome{Refused: true, Message: "Not saved: " + err.Error()}
	}
	if err := atomicfile.WriteNoFollow(path, []byte(plan), 0o644); err != nil {
		return PlanOutcome{Refused: true, Message: "Not saved: " + err.Error()}
	}
	return PlanOutcome{Message: "Saved the plan to " + path + "."}
}

// planDiffCommand is /plan diff: what changed between the last two
// versions of this session's plan.
func (a *App) planDiffCommand() PlanOutcome {
	slug := a.plan.Slug()
	if slug == "" {
		return PlanOutcome{Refused: true, Message: "This session has no plan yet."}
	}
	vs, err := plans.Versions(a.cfg.ConfigDir, slug)
	if err != nil {
		return PlanOutcome{Refused: true, Message: err.Error()}
	}
	d, err := plans.Diff(vs, slug, 0, 0)
	if err != nil {
		return PlanOutcome{Refused: true, Message: err.Error()}
	}
	if d == "" {
		d = "The last two versions are the same."
	}
	return PlanOutcome{Message: "Changes to the plan since its last version:\n" + d}
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
