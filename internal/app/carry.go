package app

import (
	"github.com/ponder-agent/ponder/event"
	"sync/atomic"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/session"
	"github.com/ponder-agent/ponder/internal/todo"
)

// This file is what an approved plan leaves for its implementation: its
// steps become the todo list (which TodoWrite then keeps, the one list
// front ends show), and the model is reminded of the steps not done yet,
// once per turn. The scope fence is the permission engine's
// (permission.Scope, from planmode.Session.Scope).

// carrySteps makes an approved plan's steps the todo list of the main
// conversation, recorded in the transcript like a TodoWrite, and makes
// the step reminder due. A plan without steps leaves the list alone.
func (a *App) carrySteps() {
	a.plan.MarkCarried(a.checkpoints.Last())
	c, ok := a.plan.Carried()
	if !ok || len(c.Steps) == 0 {
		return
	}
	items := c.StepItems()
	if err := todo.Save(a.todoPath(""), items); err != nil {
		a.emit(event.Notice{Level: "warning", Text: "could not save the plan's steps as the todo list: " + err.Error()})
		return
	}
	a.todosSaved("", items)
	a.stepsDue.Store(true)
}

// stepReminders is the main conversation's reminder of the approved
// plan's unfinished steps: due on the first request after an approval
// and on the first of each turn the user starts, while steps of the plan
// are open, so it costs one short block a turn.
func (a *App) stepReminders() []planmode.Reminder {
	if !a.stepsDue.Swap(false) {
		return nil
	}
	if _, ok := a.plan.Carried(); !ok || a.plan.Mode() == permission.ModePlan {
		return nil
	}
	items, _ := todo.Load(a.todoPath(""))
	if r, ok := planmode.StepReminder(items); ok {
		return []planmode.Reminder{r}
	}
	return nil
}

// stepsDueFlag marks the step reminder due.
type stepsDueFlag = atomic.Bool

// unapprove makes a plan approval pending again after a rewind cut its
// implementation away: the approval is recorded as waiting (so a resume
// finds it), plan mode is back on through the one transition function,
// and the carried plan is let go (its fence with it).
func (a *App) unapprove(p *session.Pending) {
	_ = a.log.Append(session.Entry{Type: session.TypePending, Pending: p})
	a.mu.Lock()
	a.pending = p
	a.mu.Unlock()
	a.plan.SetMode(permission.ModePlan, planmode.ViaRewind)
	a.plan.DropCarried()
}

// sayStale warns, once per change, that files the pending plan names
// changed since it was written.
func (a *App) sayStale() {
	n := planmode.StaleNotice(a.plan.StaleFiles())
	a.mu.Lock()
	said := n == "" || n == a.staleSaid
	a.staleSaid = n
	a.mu.Unlock()
	if !said {
		a.emit(event.Notice{Level: "warning", Text: n})
	}
}
