package app

import (
	"context"

	"github.com/ponder-agent/ponder/event"
)

// planTransitionHooks runs the PlanTransition hooks for an event that
// changes plan mode, whichever path it took (EnterPlanMode, Shift+Tab,
// /plan, a control message, an approval). They only observe, and run
// beside the session without holding it up.
func (a *App) planTransitionHooks(e event.Event) {
	if a.hooks == nil || !a.hooks.Has(event.HookPlanTransition) {
		return
	}
	in, ok := transitionInput(e)
	if !ok {
		return
	}
	if in.Transition == event.TransitionApproved && a.plan != nil {
		in.Plan, _ = a.plan.ReadPlan("")
	}
	ctx, done := a.work.track(context.Background())
	a.observing.add()
	go func() {
		defer a.observing.done()
		defer done()
		a.hookNotices(a.hooks.Run(ctx, in))
	}()
}

// transitionInput is the PlanTransition input for e; false when e
// changes nothing of plan mode.
func transitionInput(e event.Event) (event.HookInput, bool) {
	in := event.HookInput{Event: event.HookPlanTransition}
	switch e := e.(type) {
	case event.PlanModeEntered:
		in.Transition, in.Via, in.PlanFile = event.TransitionEntered, e.Via, e.PlanFile
	case event.PlanExitRequested:
		in.Transition, in.PlanFile, in.Plan, in.AgentID = event.TransitionExitRequested, e.PlanFile, e.Plan, e.AgentID
	case event.PlanApproved:
		in.Transition, in.PlanFile, in.Option, in.Via = event.TransitionApproved, e.PlanFile, e.Option, "approval"
	case event.PlanRejected:
		in.Transition, in.PlanFile, in.Feedback = event.TransitionRejected, e.PlanFile, e.Feedback
	case event.ModeChanged:
		// Leaving plan mode other than by an approval (which has its
		// own event).
		if e.From != event.ModePlan || e.To == event.ModePlan || e.Via == "approval" {
			return in, false
		}
		in.Transition, in.Via = event.TransitionExited, e.Via
	default:
		return in, false
	}
	return in, true
}
