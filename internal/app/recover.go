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
	if a.Plan.State().Slug == "" {
		return // the session never had a plan
	}
	if _, ok := a.Plan.ReadPlan(""); ok {
		return
	}
	path := a.Plan.PlanFile("")
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
	if err := a.Plan.WritePlan("", snap.Content); err != nil {
		a.Warnings = append(a.Warnings, fmt.Sprintf("the plan file %s is missing and could not be restored: %v", path, err))
		return
	}
	a.Warnings = append(a.Warnings, fmt.Sprintf("the plan file %s was missing; restored it from %s", path, from))
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
	old, ok := a.Plan.ReadPlan("")
	oldPath := a.Plan.PlanFile("")
	if a.Plan.State().Slug == "" {
		return
	}
	a.Plan.SetSlug("")
	newPath := a.Plan.PlanFile("") // a fresh name
	if !ok {
		return
	}
	if err := a.Plan.WritePlan("", old); err != nil {
		a.Warnings = append(a.Warnings, fmt.Sprintf("could not copy the plan %s for the fork: %v", oldPath, err))
		return
	}
	_ = a.Log.Append(session.Entry{Type: session.TypePlanSnapshot, Plan: &session.PlanSnapshot{Slug: a.Plan.Slug(), Path: newPath, Content: old}})
	a.infos = append(a.infos, fmt.Sprintf("forked from session %s; the plan was copied to %s", fromSession, newPath))
}

// forkTodos copies the original session's todo list to the fork.
func (a *App) forkTodos(fromSession string) {
	items, err := todo.Load(todo.Path(a.Config.ConfigDir, fromSession, ""))
	if err != nil || len(items) == 0 {
		return
	}
	_ = todo.Save(a.todoPath(""), items)
}
