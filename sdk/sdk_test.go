package sdk_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/sdk"
)

func open(t *testing.T, opts sdk.Options, replies ...fakemodel.Reply) (*sdk.Session, string) {
	t.Helper()
	env, stop := fakeModel(replies...)
	t.Cleanup(stop)
	base := t.TempDir()
	opts.Dir, opts.ConfigDir, opts.Env = filepath.Join(base, "project"), filepath.Join(base, "config"), env
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := sdk.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, opts.Dir
}

// slowStory streams a piece a second for a minute.
var slowStory = fakemodel.Reply{When: fakemodel.Match{LastUser: "story"}, Text: strings.Repeat("on and on. ", 60), ChunkDelay: fakemodel.Duration(time.Second)}

func TestInterruptEndsTheTurn(t *testing.T) {
	s, _ := open(t, sdk.Options{}, slowStory, fakemodel.Reply{When: fakemodel.Match{LastUser: "after"}, Text: "still here"})
	start := time.Now()
	var stop string
	for ev, err := range s.Send(context.Background(), "tell a story") {
		if err != nil {
			t.Fatal(err)
		}
		switch ev := ev.(type) {
		case event.TextDelta:
			s.Interrupt()
		case event.TurnFinished:
			stop = ev.StopReason
		}
	}
	if stop != "interrupted" || time.Since(start) > 20*time.Second {
		t.Errorf("stop reason %q after %s", stop, time.Since(start))
	}
	// The session goes on.
	var text string
	for ev, err := range s.Send(context.Background(), "after that?") {
		if err != nil {
			t.Fatal(err)
		}
		if done, ok := ev.(event.TurnFinished); ok {
			text = done.Text
		}
	}
	if text != "still here" {
		t.Errorf("next turn: %q", text)
	}
}

func TestBreakingOutInterruptsAndOneTurnAtATime(t *testing.T) {
	s, _ := open(t, sdk.Options{}, slowStory)
	start := time.Now()
	for ev, err := range s.Send(context.Background(), "tell a story") {
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := ev.(event.TextDelta); ok {
			// A second turn while this one runs is refused.
			for _, err := range s.Send(context.Background(), "another") {
				if !errors.Is(err, sdk.ErrBusy) {
					t.Errorf("a second turn: %v", err)
				}
			}
			break
		}
	}
	if time.Since(start) > 20*time.Second {
		t.Errorf("breaking out took %s", time.Since(start))
	}
}

// A caller that allows every question still cannot write in plan mode:
// the write is refused before anyone is asked, and the command is either
// refused too or (where the machine has a sandbox) asked about as a run
// in the read-only sandbox, where its write fails.
func TestApprovalPolicyCannotOpenPlanMode(t *testing.T) {
	asked := 0
	allowAll := func(_ context.Context, q event.Question) (event.Answer, error) {
		asked++
		if !strings.Contains(q.Reason, "read-only sandbox") {
			t.Errorf("a plan-mode question that is not about the read-only sandbox: %+v", q)
		}
		return sdk.Allow(), nil
	}
	s, dir := open(t, sdk.Options{Mode: event.ModePlan, Approve: allowAll},
		fakemodel.Reply{When: fakemodel.Match{LastUser: "go"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Write", Input: map[string]any{"file_path": "x.txt", "content": "x"}},
			{Name: "Bash", Input: map[string]any{"command": "touch y.txt"}}}},
		fakemodel.Reply{When: fakemodel.Match{ToolResult: "Plan mode"}, Text: "ok"})
	refused := 0
	for ev, err := range s.Send(context.Background(), "go") {
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := ev.(event.ToolRefused); ok {
			refused++
		}
	}
	for _, f := range []string{"x.txt", "y.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s was created in plan mode", f)
		}
	}
	if refused < 1 || refused+asked != 2 {
		t.Errorf("%d refusals, %d questions; want the write refused and the command refused or asked", refused, asked)
	}
	if err := s.SetMode(event.ModeBypass); err == nil {
		t.Error("bypassPermissions without AllowBypass was accepted")
	}
}

// A refusal that also interrupts ends the turn at once.
func TestDenyWithInterruptEndsTheTurn(t *testing.T) {
	deny := func(context.Context, event.Question) (event.Answer, error) {
		return event.Answer{Message: "stop everything", Interrupt: true}, nil
	}
	s, dir := open(t, sdk.Options{Approve: deny},
		fakemodel.Reply{When: fakemodel.Match{LastUser: "go"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Write", Input: map[string]any{"file_path": "x.txt", "content": "x"}}}},
		fakemodel.Reply{Name: "must not run", When: fakemodel.Match{ToolResult: "stop everything"}, Text: "carrying on"})
	var stop string
	for ev := range s.Send(context.Background(), "go") {
		if done, ok := ev.(event.TurnFinished); ok {
			stop = done.StopReason
		}
	}
	if stop != "interrupted" {
		t.Errorf("stop reason %q, want interrupted", stop)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.txt")); err == nil {
		t.Error("the refused write happened")
	}
}

// Hooks from Go: a PreToolUse hook that allows is one voice among the
// rules, so plan mode still refuses; a UserPromptSubmit hook that blocks
// keeps the input from the model.
func TestGoHooks(t *testing.T) {
	allow := event.HookMatcher{Event: event.HookPreToolUse, Hooks: []event.HookFunc{func(context.Context, event.HookInput) (event.HookOutput, error) {
		return event.HookOutput{Decision: event.HookAllow}, nil
	}}}
	block := event.HookMatcher{Event: event.HookUserPromptSubmit, Hooks: []event.HookFunc{func(_ context.Context, in event.HookInput) (event.HookOutput, error) {
		if strings.Contains(in.Prompt, "secret") {
			return event.HookOutput{Decision: event.HookBlock, Reason: "no secrets in prompts"}, nil
		}
		return event.HookOutput{}, nil
	}}}
	s, dir := open(t, sdk.Options{Mode: event.ModePlan, Hooks: []event.HookMatcher{allow, block}},
		fakemodel.Reply{When: fakemodel.Match{LastUser: "go"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Write", Input: map[string]any{"file_path": "x.txt", "content": "x"}}}},
		fakemodel.Reply{When: fakemodel.Match{ToolResult: "Plan mode"}, Text: "ok"})
	for _, err := range s.Send(context.Background(), "go") {
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.txt")); err == nil {
		t.Error("a hook's allow let a write through in plan mode")
	}
	var got error
	for _, err := range s.Send(context.Background(), "the secret is 42") {
		if err != nil {
			got = err
		}
	}
	if got == nil || !strings.Contains(got.Error(), "no secrets in prompts") {
		t.Errorf("blocked prompt: %v", got)
	}
}

// SessionStart adds context to the first input; PostToolUseFailure runs
// for a call that failed (PostToolUse does not); SessionEnd runs on Close.
func TestSessionAndFailureHooks(t *testing.T) {
	var ran []string
	record := func(out event.HookOutput) event.HookFunc {
		return func(_ context.Context, in event.HookInput) (event.HookOutput, error) {
			ran = append(ran, string(in.Event)+":"+in.Source+in.Reason+in.ToolName)
			return out, nil
		}
	}
	hooks := []event.HookMatcher{
		{Event: event.HookSessionStart, Hooks: []event.HookFunc{record(event.HookOutput{Context: "the team uses tabs"})}},
		{Event: event.HookPostToolUse, Hooks: []event.HookFunc{record(event.HookOutput{})}},
		{Event: event.HookPostToolUseFailure, Hooks: []event.HookFunc{record(event.HookOutput{})}},
		{Event: event.HookSessionEnd, Hooks: []event.HookFunc{record(event.HookOutput{})}},
	}
	s, _ := open(t, sdk.Options{Hooks: hooks},
		fakemodel.Reply{When: fakemodel.Match{LastUser: "the team uses tabs"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Read", Input: map[string]any{"file_path": "missing.txt"}}}},
		fakemodel.Reply{When: fakemodel.Match{ToolResult: "missing.txt"}, Text: "no such file"})
	for _, err := range s.Send(context.Background(), "read it") {
		if err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	want := "[SessionStart:startup PostToolUseFailure:Read SessionEnd:other]"
	if got := fmt.Sprint(ran); got != want {
		t.Errorf("hooks ran %s, want %s", got, want)
	}
}

// A PreToolUse hook that ends the turn refuses the call and stops there.
func TestHookThatStopsTheTurn(t *testing.T) {
	stop := event.HookMatcher{Event: event.HookPreToolUse, Hooks: []event.HookFunc{func(context.Context, event.HookInput) (event.HookOutput, error) {
		return event.HookOutput{Stop: true, StopReason: "budget spent"}, nil
	}}}
	s, dir := open(t, sdk.Options{Mode: event.ModeBypass, AllowBypass: true, Hooks: []event.HookMatcher{stop}},
		fakemodel.Reply{When: fakemodel.Match{LastUser: "go"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Write", Input: map[string]any{"file_path": "x.txt", "content": "x"}}}},
		fakemodel.Reply{Name: "must not run", When: fakemodel.Match{ToolResult: "budget"}, Text: "carrying on"})
	var reason, stopReason string
	for ev := range s.Send(context.Background(), "go") {
		switch ev := ev.(type) {
		case event.ToolRefused:
			reason = ev.Reason
		case event.TurnFinished:
			stopReason = ev.StopReason
		}
	}
	if !strings.Contains(reason, "budget spent") || stopReason != "interrupted" {
		t.Errorf("refusal %q, stop %q", reason, stopReason)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.txt")); err == nil {
		t.Error("the call ran")
	}
}
