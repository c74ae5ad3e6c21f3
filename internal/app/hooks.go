package app

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/hooks"
)

// AddHook registers hooks for the session (a Go SDK option, a stream-json
// host's callbacks). Hooks advise; the permission engine has the last
// word on every call.
func (a *App) AddHook(m event.HookMatcher) error {
	for _, f := range m.Hooks {
		if f == nil {
			return errors.New("a hook without a function")
		}
		if err := a.hooks.Add(m.Event, m.Matcher, hooks.Func(f), m.Timeout); err != nil {
			return err
		}
	}
	return nil
}

// hookBase fills the fields every hook input carries.
func (a *App) hookBase(in *event.HookInput) {
	in.SessionID = a.id
	in.Cwd = a.dir
	if a.log != nil {
		in.TranscriptPath = a.log.Path()
	}
	if a.plan != nil {
		in.Mode = string(a.plan.Mode())
	}
}

// ErrPromptBlocked says a UserPromptSubmit hook kept the input from the
// model.
var ErrPromptBlocked = errors.New("a UserPromptSubmit hook blocked the prompt")

// promptHooks runs the UserPromptSubmit hooks on the user's input and
// returns the text to send: the input, with what hooks add as context.
func (a *App) promptHooks(ctx context.Context, text string) (string, error) {
	if extra := a.sessionStartHooks(ctx); extra != "" {
		text += "\n\n<system-reminder>\n" + extra + "\n</system-reminder>"
	}
	if !a.hooks.Has(event.HookUserPromptSubmit) {
		return text, nil
	}
	out := a.hooks.Run(ctx, event.HookInput{Event: event.HookUserPromptSubmit, Prompt: text})
	a.hookNotices(out)
	if out.Decision == event.HookBlock || out.Decision == event.HookDeny || out.Stop {
		reason := strings.TrimSpace(out.Reason)
		if reason == "" {
			reason = strings.TrimSpace(out.StopReason)
		}
		if reason == "" {
			return "", ErrPromptBlocked
		}
		return "", errors.New(ErrPromptBlocked.Error() + ": " + reason)
	}
	if out.Context != "" {
		text += "\n\n<system-reminder>\n" + out.Context + "\n</system-reminder>"
	}
	return text, nil
}

// composeSystem applies the front end's system prompt options to ponder's
// own prompt. An empty replacement keeps ponder's (hosts send "" for "no
// prompt of my own").
func (a *App) composeSystem(own string) string {
	out := own
	if a.opts.SystemPrompt != nil && strings.TrimSpace(*a.opts.SystemPrompt) != "" {
		out = *a.opts.SystemPrompt
	}
	if s := strings.TrimSpace(a.opts.AppendSystemPrompt); s != "" {
		out = strings.TrimRight(out, "\n") + "\n\n" + s
	}
	return out
}

// SetSystemPrompt replaces the system prompt ("" keeps ponder's) and sets
// text to append to it, for the requests from now on (a host that sends
// them after start). Plan mode's rules stand whatever it says.
func (a *App) SetSystemPrompt(replace, appendText string) {
	a.mu.Lock()
	a.opts.SystemPrompt = &replace
	a.opts.AppendSystemPrompt = appendText
	a.system = a.composeSystem(a.ownSystem)
	system, main := a.system, a.main
	a.mu.Unlock()
	if main != nil {
		main.SetSystem(system)
	}
}

// ContextUsage is how many tokens the main conversation's last request
// used, and the model's context window.
func (a *App) ContextUsage() (used, window int) {
	return a.mainAgent().ContextTokens(), a.contextWindow(a.modelFor(a.plan.Mode()))
}

// sessionStartHooks runs the SessionStart hooks once, before the first
// input of this process reaches the model, and returns the context they
// add to it. They run this late so that hooks a host registers after
// start-up (the SDK's, in initialize) are among them.
func (a *App) sessionStartHooks(ctx context.Context) string {
	a.mu.Lock()
	done := a.startHooksRan
	a.startHooksRan = true
	a.mu.Unlock()
	if done || !a.hooks.Has(event.HookSessionStart) {
		return ""
	}
	source := "startup"
	if a.resumed {
		source = "resume"
	}
	out := a.hooks.Run(ctx, event.HookInput{Event: event.HookSessionStart, Source: source})
	a.hookNotices(out)
	return out.Context
}

// sessionEndHooks runs the SessionEnd hooks as the session closes, for a
// short while at most.
func (a *App) sessionEndHooks() {
	if !a.hooks.Has(event.HookSessionEnd) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), sessionEndWait)
	defer cancel()
	a.hookNotices(a.hooks.Run(ctx, event.HookInput{Event: event.HookSessionEnd, Reason: "other"}))
}

// sessionEndWait bounds the SessionEnd hooks.
const sessionEndWait = 5 * time.Second

// hookNotices tells the user what hooks said to them, and which failed.
func (a *App) hookNotices(out hooks.Outcome) {
	for _, m := range out.Messages {
		a.emit(event.Notice{Level: "info", Text: m})
	}
	for _, e := range out.Errors {
		a.emit(event.Notice{Level: "warning", Text: e})
	}
}
