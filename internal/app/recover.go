package app

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/ponder-agent/ponder/internal/session"
	"github.com/ponder-agent/ponder/internal/todo"
)

// recoverPlan rewrites a plan file that disappeared since the session last
// ran, from the last snapshot in the transcript, or else from the last
// approved plan, and tells the user.
func (a *App) recoverPlan(tr *session.Transcript) {
	if a.plan.State().Slug == "" {
		return // the session never had a plan
	}
	if _, ok := a.plan.ReadPlan(""); ok {
		return
	}
	path := a.plan.PlanFile("")
	if _, err := os.Lstat(path); err == nil {
		return // there, but unreadable: ReadPlan logged why; do not overwrite it
	}
	snap := tr.LastPlan(false)
	if snap == nil || snap.Content == "" {
		snap = tr.LastPlan(true)
	}
	if snap == nil || snap.Content == "" {
		return
	}
	from := "the last version recorded in the transcript"
	if snap.Approved {
		from = "the last approved plan"
	}
	if err := a.plan.WritePlan("", snap.Content); err != nil {
		a.warnings = append(a.warnings, fmt.Sprintf("the plan file %s is missing and could not be restored: %v", path, err))
		return
	}
	a.warnings = append(a.warnings, fmt.Sprintf("the plan file %s was missing; restored it from %s", path, from))
}

// recoverTodos rewrites the todo list from the transcript when its file is
// gone.
func (a *App) recoverTodos(tr *session.Transcript) {
	raw := tr.LastTodos()
	path := a.todoPath("")
	if raw == nil {
		return
	}
	if _, err := os.Stat(path); err == nil {
		return
	}
	var items []todo.Item
	if json.Unmarshal(raw, &items) != nil || todo.Validate(items) != nil {
		return
	}
	_ = todo.Save(path, items)
}

// forkPlan gives a forked session a plan file of its own, a copy of the
// original's, so the two sessions never overwrite each other's plan.
func (a *App) forkPlan(fromSession string) {
	old, ok := a.plan.ReadPlan("")
	oldPath := a.plan.PlanFile("")
	if a.plan.State().Slug == "" {
		return
	}
	a.plan.SetSlug("")
	newPath := a.plan.PlanFile("") // a fresh name
	if !ok {
		return
	}
	if err := a.plan.WritePlan("", old); err != nil {
		a.warnings = append(a.warnings, fmt.Sprintf("could not copy the plan %s for the fork: %v", oldPath, err))
		return
	}
	_ = a.log.Append(session.Entry{Type: session.TypePlanSnapshot, Plan: &session.PlanSnapshot{Slug: a.plan.Slug(), Path: newPath, Content: old, Cause: session.CauseForked}})
	a.infos = append(a.infos, fmt.Sprintf("forked from session %s; the plan was copied to %s", fromSession, newPath))
}

// forkTodos copies the original session's todo list to the fork.
func (a *App) forkTodos(fromSession string) {
	items, err := todo.Load(todo.Path(a.cfg.ConfigDir, fromSession, ""))
	if err != nil || len(items) == 0 {
		return
	}
	_ = todo.Save(a.todoPath(""), items)
}
