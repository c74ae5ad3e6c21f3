package app

import (
	"strings"

	"github.com/ponder-agent/ponder/internal/checkpoint"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
)

// This file is how a turn was sent, kept with its checkpoint so that a
// rewind of the conversation can put it back to be sent the same way:
// the mode the session was in and the command that sent the prompt. A
// turn sent by /plan <task> went out in plan mode because of the
// command, so it is put back as "/plan <task>" in the mode before it.

// planTask is a task /plan was given, and the mode before the command.
type planTask struct {
	task string
	from permission.Mode
}

// notePlanTask remembers that /plan was given task while in the current
// mode; the turn that sends task is recorded as sent by /plan.
func (a *App) notePlanTask(task string) {
	from := a.plan.Mode()
	a.mu.Lock()
	a.planTask = &planTask{task: strings.TrimSpace(task), from: from}
	a.mu.Unlock()
}

// turnStart says how the turn about to send typed was sent, and forgets
// a /plan task either way: only the turn right after /plan is its.
func (a *App) turnStart(typed string) checkpoint.Start {
	a.mu.Lock()
	pt := a.planTask
	a.planTask = nil
	a.mu.Unlock()
	if pt != nil && pt.task == strings.TrimSpace(typed) && a.plan.Mode() == permission.ModePlan {
		return checkpoint.Start{Mode: string(pt.from), Via: "/plan"}
	}
	return checkpoint.Start{Mode: string(a.plan.Mode())}
}

// restoreTurnMode puts the session back in the mode start records
// (unless a headless run names its mode on the command line),
// through SetMode (whose guard and ceiling have the last word), and
// returns the mode it is in afterwards when that changed ("" when
// nothing was recorded or nothing changed).
func (a *App) restoreTurnMode(start checkpoint.Start) string {
	want := permission.Mode(start.Mode)
	if want == "" || want == a.plan.Mode() {
		return ""
	}
	if a.opts.Mode != "" && !a.opts.Interactive {
		// A headless run's --permission-mode says the mode to go on in.
		return ""
	}
	ch := a.plan.SetMode(want, planmode.ViaRewind)
	if !ch.Changed() {
		return ""
	}
	return string(ch.To)
}

// Resend is the text to put back in the input box after a rewind of
// the conversation: the prompt, behind the command that sent it.
func (r RewindResult) Resend() string {
	if r.Command != "" && r.Prompt != "" {
		return r.Command + " " + r.Prompt
	}
	return r.Prompt
}
