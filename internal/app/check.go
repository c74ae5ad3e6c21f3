package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/atomicfile"
	"github.com/ponder-agent/ponder/internal/checkpoint"
	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/session"
	"github.com/ponder-agent/ponder/internal/todo"
)

// This file is the conformance report: an implementation compared with
// its approved plan (planmode.Check) from what ponder recorded, the todo
// list and the checkpoints of the turns since the approval. It is made
// when the implementation's turn ends, on /plan check, and by `ponder
// plans check` for a session that is not open.

// ErrNoApprovedPlan says a session has no approved plan to check.
var ErrNoApprovedPlan = errors.New("this session has no approved plan to check")

// CheckPlan compares the implementation so far with the approved plan,
// writes the report next to the plan file and sends it as an event.
func (a *App) CheckPlan() (event.PlanReport, error) {
	c, ok := a.plan.Carried()
	if !ok {
		return event.PlanReport{}, ErrNoApprovedPlan
	}
	items, _ := todo.Load(a.todoPath(""))
	r := planmode.Check(c, implementationWork(items, a.checkpoints.Turns(), c.FromTurn), a.root)
	path := planmode.ReportPath(c.PlanFile)
	if err := atomicfile.WriteNoFollow(path, []byte(planmode.ReportMarkdown(r)), 0o600); err != nil {
		a.emit(event.Notice{Level: "warning", Text: fmt.Sprintf("could not write the plan's report to %s: %v", path, err)})
	} else {
		r.ReportFile = path
	}
	a.emit(r)
	return r, nil
}

// implementationWork gathers what the turns from turn `from` on changed.
func implementationWork(items []event.TodoItem, turns []checkpoint.Turn, from int) planmode.Work {
	w := planmode.Work{Todos: items}
	for _, t := range turns {
		if t.N < from {
			continue
		}
		for _, f := range t.Files {
			w.Changed = append(w.Changed, f.Path)
		}
		for _, cmd := range t.Commands {
			w.Commands = append(w.Commands, cmd.Command)
		}
	}
	return w
}

// implementationEnded makes the report once, when the first turn of an
// implementation ends outside plan mode.
func (a *App) implementationEnded() {
	if a.plan.Mode() == permission.ModePlan {
		return
	}
	if !a.plan.NoteCarried(func(c *planmode.Carried) *bool { return &c.Reported }) {
		return
	}
	_, _ = a.CheckPlan()
	if a.cfg.ReturnAfterImplementation() {
		a.plan.SetMode(permission.ModePlan, planmode.ViaReturn)
	}
}

// beforeStop asks the model, once per approved plan, to address how the
// implementation departs from the plan before it ends its turn: steps
// open or changed, files outside the plan, planned files untouched.
func (a *App) beforeStop() string {
	c, ok := a.plan.Carried()
	if !ok || c.DriftAsked || c.Reported || a.plan.Mode() == permission.ModePlan {
		return ""
	}
	items, _ := todo.Load(a.todoPath(""))
	r := planmode.Check(c, implementationWork(items, a.checkpoints.Turns(), c.FromTurn), a.root)
	if !planmode.Drift(r) || !a.plan.NoteCarried(func(c *planmode.Carried) *bool { return &c.DriftAsked }) {
		return ""
	}
	return planmode.DriftPrompt(r)
}

// CheckSession makes the conformance report of session id (an id or the
// start of one) of the project in opts.Dir from its transcript, without
// opening it: for `ponder plans check`. It writes nothing.
func CheckSession(opts Options, id string) (event.PlanReport, error) {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	dir, err := workDir(opts)
	if err != nil {
		return event.PlanReport{}, err
	}
	cfgDir := opts.ConfigDir
	if cfgDir == "" {
		if cfgDir, err = config.DefaultDir(opts.Getenv); err != nil {
			return event.PlanReport{}, &UsageError{Msg: "settings: " + err.Error()}
		}
	}
	info, err := session.NewStore(cfgDir, dir).Find(id)
	if err != nil {
		return event.PlanReport{}, &UsageError{Msg: err.Error()}
	}
	tr, err := session.Load(info.Path)
	if err != nil {
		return event.PlanReport{}, err
	}
	var st planmode.State
	if raw := tr.LastState(); raw == nil || json.Unmarshal(raw, &st) != nil || st.Carried == nil {
		return event.PlanReport{}, &UsageError{Msg: fmt.Sprintf("session %s: %v", info.ID, ErrNoApprovedPlan)}
	}
	var items []event.TodoItem
	if raw := tr.LastTodos(); raw != nil {
		_ = json.Unmarshal(raw, &items)
	}
	store := checkpoint.New(filepath.Join(cfgDir, "file-history"), nil, nil)
	store.Replay(tr.Entries)
	home, _ := os.UserHomeDir()
	root := config.FindRoot(dir, cfgDir, home)
	return planmode.Check(*st.Carried, implementationWork(items, store.Turns(), st.Carried.FromTurn), root), nil
}

// ReportText renders a conformance report as the file next to the plan
// holds it.
func ReportText(r event.PlanReport) string { return planmode.ReportMarkdown(r) }
