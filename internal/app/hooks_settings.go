package app

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/hooks/cmdhook"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/sandbox"
	"github.com/ponder-agent/ponder/internal/shellenv"
)

// addSettingsHooks registers the command hooks of the settings that count
// (the user's, and a trusted project's). They are read once, as the
// session starts: a settings file changed while it runs (by the model,
// say, where that was allowed) adds no hook to it.
func (a *App) addSettingsHooks() error {
	env := shellenv.Build(os.Environ(), a.shellPolicy())
	seen := map[[3]string]bool{}
	for _, src := range a.cfg.HookSources() {
		// The same command for the same moment in two files (the user's
		// and the project's, say) runs once.
		key := [3]string{string(src.Event), strings.TrimSpace(src.Matcher), strings.TrimSpace(src.Command)}
		if seen[key] {
			continue
		}
		seen[key] = true
		h := cmdhook.New(cmdhook.Options{
			Command: src.Command,
			Dir:     a.root,
			Env:     env,
			Confine: a.hooksConfined,
			Sandbox: a.sandbox,
			Deny:    a.hookDeny,
			Free:    &a.freeHooks,
		})
		if err := a.hooks.Add(src.Event, src.Matcher, h, src.Timeout); err != nil {
			return &UsageError{Msg: fmt.Sprintf("settings: %s: %s: %v", src.From, src.Key, err)}
		}
	}
	return nil
}

// hooksConfined says command hooks run in the OS sandbox now: while plan
// mode is on, like the commands plan mode runs, they may read but not
// change anything.
func (a *App) hooksConfined() bool {
	return a.plan == nil || a.plan.Mode() == permission.ModePlan
}

// hookDeny is what the kernel keeps a command hook from: like a shell
// command's, every path the deny rules cover when confined, and those
// outside the project for reading when not.
func (a *App) hookDeny(confined bool) sandbox.Deny {
	d := a.deniedPaths()
	if confined {
		return sandbox.Deny{Read: d.Read, Write: d.Write}
	}
	return sandbox.Deny{Read: d.ReadOutside}
}

// questionAsked publishes a question for the front ends and runs the
// Notification hooks, which only observe, without holding the question
// up.
func (a *App) questionAsked(q permission.Question) {
	a.emit(event.QuestionAsked{Question: q})
	if !a.hooks.Has(event.HookNotification) {
		return
	}
	ctx, done := a.work.track(context.Background())
	a.observing.add()
	go func() {
		defer a.observing.done()
		defer done()
		a.hookNotices(a.hooks.Run(ctx, event.HookInput{Event: event.HookNotification, Message: notificationText(q)}))
	}()
}

// notificationText says in a sentence what ponder asks the user.
func notificationText(q permission.Question) string {
	switch q.Kind {
	case event.AskToolUse:
		return "ponder needs your permission to use " + q.Tool
	case event.AskEnterPlan:
		return "ponder asks to enter plan mode"
	case event.AskPlanExit:
		return "ponder asks you to approve its plan"
	case event.AskUser:
		return "ponder has a question for you"
	}
	return "ponder is waiting for your answer"
}

// preCompactHooks runs the PreCompact hooks before a compaction; trigger
// is "manual" or "auto". They only observe.
func (a *App) preCompactHooks(ctx context.Context, trigger, instructions string) {
	if !a.hooks.Has(event.HookPreCompact) {
		return
	}
	a.hookNotices(a.hooks.Run(ctx, event.HookInput{Event: event.HookPreCompact, Trigger: trigger, CustomInstructions: instructions}))
}

// observers counts hooks that run beside the session and only observe
// (Notification), so that Close can let them finish. Unlike a WaitGroup it
// may gain one while someone waits.
type observers struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to 0
}

func (o *observers) add() {
	o.mu.Lock()
	if o.n == 0 {
		o.idle = make(chan struct{})
	}
	o.n++
	o.mu.Unlock()
}

func (o *observers) done() {
	o.mu.Lock()
	o.n--
	if o.n == 0 {
		close(o.idle)
	}
	o.mu.Unlock()
}

// waitObservers gives the Notification hooks still running up to limit to
// finish; Close then stops those left.
func (a *App) waitObservers(limit time.Duration) {
	a.observing.mu.Lock()
	idle := a.observing.idle
	busy := a.observing.n > 0
	a.observing.mu.Unlock()
	if !busy {
		return
	}
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-idle:
	case <-t.C:
	}
}

// describeHooks lists settings hooks for people (ponder doctor).
func describeHooks(srcs []config.HookSource) []string {
	out := make([]string, 0, len(srcs))
	for _, h := range srcs {
		on := string(h.Event)
		if m := strings.TrimSpace(h.Matcher); m != "" && m != "*" {
			on += " [" + m + "]"
		}
		out = append(out, fmt.Sprintf("%s: %s (from %s)", on, h.Command, h.From))
	}
	return out
}

// hooksModeChanged keeps command hooks outside the sandbox out of plan
// mode, as modeChanged does for commands: those still running as it
// begins are stopped, and until it ends hooks start confined.
func (a *App) hooksModeChanged(mc event.ModeChanged) {
	plan := string(permission.ModePlan)
	switch {
	case mc.To == plan && mc.From != plan:
		if n := a.freeHooks.Raise(); n > 0 {
			a.emit(event.Notice{Level: "info", Text: fmt.Sprintf(
				"Plan mode began: stopped %d hook(s) running outside the sandbox.", n)})
		}
	case mc.From == plan && mc.To != plan:
		a.freeHooks.Lower()
	}
}
