// Package hooks runs the hooks a session has at its moments (before and
// after a tool call, when a prompt is submitted, when the model would
// stop, as a session starts and ends, before a compaction, when the user
// is asked something) and folds their answers into one outcome. Where a
// hook comes from does not matter here: a Go function of the SDK, a
// callback a stream-json host answers, or a command from the settings
// (package cmdhook) all implement Hook.
//
// Hooks only advise. What a PreToolUse outcome says is handed to the
// permission engine, which weighs it with every other rule: a hook can
// refuse a call or make it ask, and it can spare a question, but it can
// never lift a hard limit such as plan mode's.
package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/ponder-agent/ponder/event"
)

// Hook is one hook.
type Hook interface {
	Run(ctx context.Context, in event.HookInput) (event.HookOutput, error)
}

// Func adapts a function to Hook.
type Func event.HookFunc

// Run calls f.
func (f Func) Run(ctx context.Context, in event.HookInput) (event.HookOutput, error) {
	return f(ctx, in)
}

// Events are the moments hooks may be registered for, in the order a
// person would list them.
var Events = []event.HookEvent{event.HookPreToolUse, event.HookPostToolUse, event.HookPostToolUseFailure,
	event.HookUserPromptSubmit, event.HookStop, event.HookSessionStart, event.HookSessionEnd,
	event.HookPreCompact, event.HookNotification, event.HookPermissionRequest, event.HookPlanTransition}

// Supported reports whether hooks may be registered for ev.
func Supported(ev event.HookEvent) bool {
	for _, e := range Events {
		if e == ev {
			return true
		}
	}
	return false
}

func eventNames() []string {
	out := make([]string, len(Events))
	for i, e := range Events {
		out[i] = string(e)
	}
	return out
}

// matchTarget is what an event's matchers are matched against: the tool's
// name for tool events, how the session began for SessionStart, what
// started a compaction for PreCompact. Other events have no target, and
// every hook registered for them runs whatever its matcher.
func matchTarget(in event.HookInput) (string, bool) {
	switch in.Event {
	case event.HookPreToolUse, event.HookPostToolUse, event.HookPostToolUseFailure, event.HookPermissionRequest:
		return in.ToolName, true
	case event.HookPlanTransition:
		return in.Transition, true
	case event.HookSessionStart:
		return in.Source, true
	case event.HookPreCompact:
		return in.Trigger, true
	}
	return "", false
}

// DefaultTimeout bounds one hook's run when its registration names none.
const DefaultTimeout = 60 * time.Second

// entry is one registered hook.
type entry struct {
	event   event.HookEvent
	match   *regexp.Regexp // nil: every tool
	hook    Hook
	timeout time.Duration
}

// Registry holds a session's hooks. The zero value and nil have none; it
// is safe for concurrent use.
type Registry struct {
	mu      sync.RWMutex
	entries []entry
	// base fills the fields every input carries (session, directory,
	// mode).
	base func(*event.HookInput)
}

// New returns a registry whose inputs get their common fields from base.
func New(base func(*event.HookInput)) *Registry { return &Registry{base: base} }

// Add registers h for ev on the tools matcher selects (see
// event.HookMatcher); timeout 0 is DefaultTimeout.
func (r *Registry) Add(ev event.HookEvent, matcher string, h Hook, timeout time.Duration) error {
	if !Supported(ev) {
		return fmt.Errorf("hook event %q is not supported (want %s)", ev, strings.Join(eventNames(), ", "))
	}
	e := entry{event: ev, hook: h, timeout: timeout}
	if e.timeout <= 0 {
		e.timeout = DefaultTimeout
	}
	if m := strings.TrimSpace(matcher); m != "" && m != "*" {
		re, err := regexp.Compile("^(?:" + m + ")$")
		if err != nil {
			return fmt.Errorf("hook matcher %q: %v", matcher, err)
		}
		e.match = re
	}
	r.mu.Lock()
	r.entries = append(r.entries, e)
	r.mu.Unlock()
	return nil
}

// Has reports whether any hook is registered for ev.
func (r *Registry) Has(ev event.HookEvent) bool {
	if r == nil {
		return false
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, e := range r.entries {
		if e.event == ev {
			return true
		}
	}
	return false
}

// Outcome is what the hooks of one moment said, together.
type Outcome struct {
	// Decision is the strictest decision given: deny (or block) over ask
	// over allow; "" when no hook decided.
	Decision string
	// Reason is the reason of the hook whose decision won, or of all
	// hooks that agreed on it.
	Reason string
	// Context joins the context every hook added.
	Context string
	// Stop says a hook asked to end the turn, StopReason why.
	Stop       bool
	StopReason string
	// Messages are for the user; Errors say which hooks failed (a failed
	// hook has no opinion).
	Messages []string
	Errors   []string
	// UpdatedInput and Mode come from the hooks that allowed (a
	// PermissionRequest): the last of them that set one wins.
	UpdatedInput json.RawMessage
	Mode         string
}

// rank orders decisions from no opinion to the strictest.
var rank = map[string]int{"": 0, event.HookAllow: 1, event.HookAsk: 2, event.HookDeny: 3, event.HookBlock: 3}

// Run runs every hook registered for in.Event (and, for tool events,
// in.ToolName) and folds their answers in the order the hooks were
// registered. The hooks run side by side, so that the slowest, not the
// sum of them, bounds the wait. A hook that fails or runs out of time
// counts as no opinion and is named in Errors.
func (r *Registry) Run(ctx context.Context, in event.HookInput) Outcome {
	var out Outcome
	if r == nil {
		return out
	}
	if r.base != nil {
		r.base(&in)
	}
	r.mu.RLock()
	entries := append([]entry(nil), r.entries...)
	r.mu.RUnlock()
	target, matched := matchTarget(in)
	var picked []entry
	for _, e := range entries {
		if e.event == in.Event && (!matched || e.match == nil || e.match.MatchString(target)) {
			picked = append(picked, e)
		}
	}
	type answer struct {
		out event.HookOutput
		err error
	}
	answers := make([]answer, len(picked))
	var wg sync.WaitGroup
	for i, e := range picked {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i].out, answers[i].err = runOne(ctx, e, in)
		}()
	}
	wg.Wait()
	var contexts, reasons []string
	for _, a := range answers {
		o, err := a.out, a.err
		if err != nil {
			out.Errors = append(out.Errors, fmt.Sprintf("%s hook: %v", in.Event, err))
			continue
		}
		d := strings.ToLower(strings.TrimSpace(o.Decision))
		if _, ok := rank[d]; !ok {
			out.Errors = append(out.Errors, fmt.Sprintf("%s hook: unknown decision %q (ignored)", in.Event, o.Decision))
			d = ""
		}
		switch {
		case rank[d] > rank[out.Decision]:
			out.Decision, reasons = d, nil
			fallthrough
		case d != "" && rank[d] == rank[out.Decision]:
			if s := strings.TrimSpace(o.Reason); s != "" {
				reasons = append(reasons, s)
			}
		}
		if d == event.HookAllow {
			if len(o.UpdatedInput) > 0 {
				out.UpdatedInput = o.UpdatedInput
			}
			if m := strings.TrimSpace(o.Mode); m != "" {
				out.Mode = m
			}
		}
		if s := strings.TrimSpace(o.Context); s != "" {
			contexts = append(contexts, s)
		}
		if o.Stop {
			out.Stop = true
			if out.StopReason == "" {
				out.StopReason = o.StopReason
			}
		}
		if s := strings.TrimSpace(o.SystemMessage); s != "" {
			out.Messages = append(out.Messages, s)
		}
	}
	if out.Decision != event.HookAllow {
		out.UpdatedInput, out.Mode = nil, ""
	}
	out.Reason = strings.Join(reasons, "\n")
	out.Context = strings.Join(contexts, "\n")
	return out
}

// errTimeout is a hook that ran out of time.
var errTimeout = errors.New("timed out")

// runOne runs one hook within its time, turning a panic into an error.
func runOne(ctx context.Context, e entry, in event.HookInput) (out event.HookOutput, err error) {
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panicked: %v", p)
		}
	}()
	out, err = e.hook.Run(ctx, in)
	if err == nil && ctx.Err() == context.DeadlineExceeded {
		err = errTimeout
	}
	return out, err
}
