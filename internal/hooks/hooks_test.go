package hooks

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/event"
)

func decide(d, reason string) Func {
	return func(context.Context, event.HookInput) (event.HookOutput, error) {
		return event.HookOutput{Decision: d, Reason: reason}, nil
	}
}

func TestStrictestDecisionWins(t *testing.T) {
	r := New(func(in *event.HookInput) { in.SessionID = "s1" })
	var seen event.HookInput
	must(t, r.Add(event.HookPreToolUse, "", Func(func(_ context.Context, in event.HookInput) (event.HookOutput, error) {
		seen = in
		return event.HookOutput{Decision: event.HookAllow, Reason: "fine"}, nil
	}), 0))
	must(t, r.Add(event.HookPreToolUse, "Write|Edit", decide(event.HookDeny, "no writes"), 0))
	must(t, r.Add(event.HookPreToolUse, "Bash", decide(event.HookAsk, "check"), 0))

	out := r.Run(context.Background(), event.HookInput{Event: event.HookPreToolUse, ToolName: "Write"})
	if out.Decision != event.HookDeny || out.Reason != "no writes" {
		t.Errorf("Write: got %q %q, want deny with its reason", out.Decision, out.Reason)
	}
	if seen.SessionID != "s1" {
		t.Errorf("base fields not filled: %+v", seen)
	}
	out = r.Run(context.Background(), event.HookInput{Event: event.HookPreToolUse, ToolName: "Read"})
	if out.Decision != event.HookAllow {
		t.Errorf("Read: got %q, want allow", out.Decision)
	}
	// The matcher must match the whole name: "Bash" is not "BashOutput".
	out = r.Run(context.Background(), event.HookInput{Event: event.HookPreToolUse, ToolName: "BashOutput"})
	if out.Decision != event.HookAllow {
		t.Errorf("BashOutput: got %q, want allow (the Bash matcher is anchored)", out.Decision)
	}
	if out := r.Run(context.Background(), event.HookInput{Event: event.HookStop}); out.Decision != "" {
		t.Errorf("no Stop hooks, got %q", out.Decision)
	}
}

func TestFailingHooksHaveNoOpinion(t *testing.T) {
	r := New(nil)
	must(t, r.Add(event.HookStop, "", Func(func(context.Context, event.HookInput) (event.HookOutput, error) {
		return event.HookOutput{}, errors.New("boom")
	}), 0))
	must(t, r.Add(event.HookStop, "", Func(func(context.Context, event.HookInput) (event.HookOutput, error) {
		panic("bad hook")
	}), 0))
	must(t, r.Add(event.HookStop, "", Func(func(ctx context.Context, _ event.HookInput) (event.HookOutput, error) {
		<-ctx.Done()
		return event.HookOutput{Decision: event.HookBlock}, nil
	}), 10*time.Millisecond))
	must(t, r.Add(event.HookStop, "", decide("maybe", ""), 0))
	out := r.Run(context.Background(), event.HookInput{Event: event.HookStop})
	if out.Decision != "" || len(out.Errors) != 4 {
		t.Errorf("got decision %q, errors %q; want none and four errors", out.Decision, out.Errors)
	}
}

func TestBadRegistrations(t *testing.T) {
	r := New(nil)
	if err := r.Add("SubagentStop", "", decide("", ""), 0); err == nil {
		t.Error("an unsupported event was accepted")
	}
	if err := r.Add(event.HookPreToolUse, "(", decide("", ""), 0); err == nil {
		t.Error("a broken matcher was accepted")
	}
	var none *Registry
	if none.Has(event.HookStop) || none.Run(context.Background(), event.HookInput{Event: event.HookStop}).Decision != "" {
		t.Error("a nil registry has hooks")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// The hooks of a moment run side by side, and their answers are folded in
// the order they were registered.
func TestHooksRunSideBySide(t *testing.T) {
	r := New(nil)
	both := make(chan struct{})
	var arrived sync.WaitGroup
	arrived.Add(2)
	waitBoth := func(reason string) Func {
		return func(ctx context.Context, _ event.HookInput) (event.HookOutput, error) {
			arrived.Done()
			select {
			case <-both:
			case <-ctx.Done():
				return event.HookOutput{}, ctx.Err()
			}
			return event.HookOutput{Decision: event.HookDeny, Reason: reason}, nil
		}
	}
	must(t, r.Add(event.HookPreToolUse, "", waitBoth("first"), 10*time.Second))
	must(t, r.Add(event.HookPreToolUse, "", waitBoth("second"), 10*time.Second))
	go func() {
		arrived.Wait() // only if both run at once
		close(both)
	}()
	out := r.Run(context.Background(), event.HookInput{Event: event.HookPreToolUse, ToolName: "Bash"})
	if len(out.Errors) > 0 {
		t.Fatalf("the hooks did not run at once: %v", out.Errors)
	}
	if out.Reason != "first\nsecond" {
		t.Errorf("reasons %q, want them in registration order", out.Reason)
	}
}

// SessionStart matchers select the source, PreCompact matchers the
// trigger; other events run every hook whatever its matcher.
func TestMatchTargets(t *testing.T) {
	r := New(nil)
	var ran []string
	var mu sync.Mutex
	note := func(name string) Func {
		return func(context.Context, event.HookInput) (event.HookOutput, error) {
			mu.Lock()
			ran = append(ran, name)
			mu.Unlock()
			return event.HookOutput{}, nil
		}
	}
	must(t, r.Add(event.HookSessionStart, "resume", note("resume"), 0))
	must(t, r.Add(event.HookSessionStart, "startup", note("startup"), 0))
	must(t, r.Add(event.HookPreCompact, "auto", note("auto"), 0))
	must(t, r.Add(event.HookNotification, "whatever", note("notification"), 0))
	r.Run(context.Background(), event.HookInput{Event: event.HookSessionStart, Source: "startup"})
	r.Run(context.Background(), event.HookInput{Event: event.HookPreCompact, Trigger: "manual"})
	r.Run(context.Background(), event.HookInput{Event: event.HookNotification, Message: "hi"})
	if strings.Join(ran, ",") != "startup,notification" {
		t.Errorf("ran %v, want startup and notification", ran)
	}
}

// PermissionRequest hooks match the tool's name; an edited input and a
// mode count only when the outcome is an allow, and a deny drops them.
func TestPermissionRequestFold(t *testing.T) {
	r := New(nil)
	allow := Func(func(context.Context, event.HookInput) (event.HookOutput, error) {
		return event.HookOutput{Decision: event.HookAllow, UpdatedInput: []byte(`{"plan":"edited"}`), Mode: event.ModeAcceptEdits}, nil
	})
	must(t, r.Add(event.HookPermissionRequest, "ExitPlanMode", allow, 0))
	must(t, r.Add(event.HookPermissionRequest, "Bash", allow, 0))
	must(t, r.Add(event.HookPermissionRequest, "Bash", decide(event.HookDeny, "no"), 0))
	out := r.Run(context.Background(), event.HookInput{Event: event.HookPermissionRequest, ToolName: "ExitPlanMode"})
	if out.Decision != event.HookAllow || string(out.UpdatedInput) != `{"plan":"edited"}` || out.Mode != event.ModeAcceptEdits {
		t.Errorf("ExitPlanMode: %+v", out)
	}
	out = r.Run(context.Background(), event.HookInput{Event: event.HookPermissionRequest, ToolName: "Bash"})
	if out.Decision != event.HookDeny || out.UpdatedInput != nil || out.Mode != "" {
		t.Errorf("Bash: %+v, want a deny without the allow's input", out)
	}
	if out := r.Run(context.Background(), event.HookInput{Event: event.HookPermissionRequest, ToolName: "Write"}); out.Decision != "" {
		t.Errorf("Write: %+v, want no opinion", out)
	}
}

// PlanTransition hooks match the transition.
func TestPlanTransitionMatchesTransition(t *testing.T) {
	r := New(nil)
	var got []string
	var mu sync.Mutex
	must(t, r.Add(event.HookPlanTransition, "approved|rejected", Func(func(_ context.Context, in event.HookInput) (event.HookOutput, error) {
		mu.Lock()
		got = append(got, in.Transition)
		mu.Unlock()
		return event.HookOutput{}, nil
	}), 0))
	for _, tr := range []string{event.TransitionEntered, event.TransitionApproved, event.TransitionRejected, event.TransitionExited} {
		r.Run(context.Background(), event.HookInput{Event: event.HookPlanTransition, Transition: tr})
	}
	if strings.Join(got, ",") != "approved,rejected" {
		t.Errorf("ran for %v", got)
	}
}
