package sdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/sdk"
)

// A session answers a prompt; the turn's events end with TurnFinished.
func Example() {
	env, stop := fakeModel(fakemodel.Reply{When: fakemodel.Match{LastUser: "hello"}, Text: "Hello! What shall we build?"})
	defer stop()
	project, config, cleanup := scratch()
	defer cleanup()

	s, err := sdk.Open(sdk.Options{Dir: project, ConfigDir: config, Env: env})
	if err != nil {
		fmt.Println("open:", err)
		return
	}
	defer s.Close()
	for ev, err := range s.Send(context.Background(), "hello") {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		switch ev := ev.(type) {
		case event.SessionStarted:
			fmt.Println("mode:", ev.Mode)
		case event.TurnFinished:
			fmt.Println(ev.StopReason+":", ev.Text)
		}
	}
	// Output:
	// mode: default
	// end_turn: Hello! What shall we build?
}

// Plan mode: the model explores, writes its plan and asks to leave plan
// mode; the program approves the plan, and only then do files change.
// The model's attempt to write early is refused whatever anyone answers.
func Example_planMode() {
	env, stop := fakeModel(
		fakemodel.Reply{When: fakemodel.Match{LastUser: "add a greeting"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Write", Input: map[string]any{"file_path": "hello.txt", "content": "too early\n"}}}},
		fakemodel.Reply{When: fakemodel.Match{ToolResult: "Plan mode"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Write", InputFunc: func(r *fakemodel.Request) any {
				return map[string]any{"file_path": planPath(r), "content": "# Greeting\n\nCreate hello.txt.\n"}
			}}}},
		fakemodel.Reply{When: fakemodel.Match{ToolResult: "plans/"}, ToolCalls: []fakemodel.ToolCall{{Name: "ExitPlanMode", Input: map[string]any{}}}},
		fakemodel.Reply{When: fakemodel.Match{ToolResult: "approved"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Write", Input: map[string]any{"file_path": "hello.txt", "content": "hello\n"}}}},
		fakemodel.Reply{When: fakemodel.Match{ToolResult: "hello.txt"}, Text: "Done."},
	)
	defer stop()
	project, config, cleanup := scratch()
	defer cleanup()

	s, err := sdk.Open(sdk.Options{Dir: project, ConfigDir: config, Env: env, Mode: event.ModePlan})
	if err != nil {
		fmt.Println("open:", err)
		return
	}
	defer s.Close()
	for ev, err := range s.Send(context.Background(), "add a greeting") {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		switch ev := ev.(type) {
		case event.ToolRefused:
			fmt.Println("refused:", ev.Tool, "in", ev.Mode, "mode")
		case event.QuestionAsked:
			if q := ev.Question; q.Kind == event.AskPlanExit {
				fmt.Println("plan:", strings.SplitN(q.Plan, "\n", 2)[0])
				s.Answer(q.ID, sdk.ApprovePlan(event.OptionAcceptEdits))
			}
		case event.PlanApproved:
			fmt.Println("approved; now in", ev.Mode)
		case event.TurnFinished:
			fmt.Println("done:", ev.Text)
		}
	}
	data, _ := os.ReadFile(filepath.Join(project, "hello.txt"))
	fmt.Printf("hello.txt: %s", data)
	// Output:
	// refused: Write in plan mode
	// plan: # Greeting
	// approved; now in acceptEdits
	// done: Done.
	// hello.txt: hello
}

// An approval policy answers every question in one place: here, writes
// to Markdown files are allowed and every other write is refused.
func Example_approvalPolicy() {
	env, stop := fakeModel(
		fakemodel.Reply{When: fakemodel.Match{LastUser: "write notes"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Write", Input: map[string]any{"file_path": "notes.md", "content": "# Notes\n"}},
			{Name: "Write", Input: map[string]any{"file_path": "main.go", "content": "package main\n"}}}},
		fakemodel.Reply{When: fakemodel.Match{ToolResult: "notes.md"}, Text: "Wrote the notes."},
	)
	defer stop()
	project, config, cleanup := scratch()
	defer cleanup()

	filePath := func(input json.RawMessage) string {
		var in struct {
			FilePath string `json:"file_path"`
		}
		_ = json.Unmarshal(input, &in)
		return in.FilePath
	}
	policy := func(_ context.Context, q event.Question) (event.Answer, error) {
		if q.Kind == event.AskToolUse && strings.HasSuffix(filePath(q.Input), ".md") {
			return sdk.Allow(), nil
		}
		return sdk.Deny("only Markdown files may change"), nil
	}
	s, err := sdk.Open(sdk.Options{Dir: project, ConfigDir: config, Env: env, Approve: policy})
	if err != nil {
		fmt.Println("open:", err)
		return
	}
	defer s.Close()
	for ev, err := range s.Send(context.Background(), "write notes") {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		if r, ok := ev.(event.ToolRefused); ok {
			fmt.Println("refused:", r.Tool, filePath(r.Input))
		}
	}
	for _, name := range []string{"notes.md", "main.go"} {
		_, err := os.Stat(filepath.Join(project, name))
		fmt.Println(name, "exists:", err == nil)
	}
	// Output:
	// refused: Write main.go
	// notes.md exists: true
	// main.go exists: false
}

// A hook refuses shell commands; the model is told the hook's reason.
func Example_hooks() {
	env, stop := fakeModel(
		fakemodel.Reply{When: fakemodel.Match{LastUser: "clean up"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Bash", Input: map[string]any{"command": "rm -rf build"}}}},
		fakemodel.Reply{When: fakemodel.Match{ToolResult: "hook"}, Text: "I will leave the build directory alone."},
	)
	defer stop()
	project, config, cleanup := scratch()
	defer cleanup()

	noShell := event.HookMatcher{Event: event.HookPreToolUse, Matcher: "Bash", Hooks: []event.HookFunc{
		func(_ context.Context, in event.HookInput) (event.HookOutput, error) {
			return event.HookOutput{Decision: event.HookDeny, Reason: "no shell commands in this job"}, nil
		}}}
	s, err := sdk.Open(sdk.Options{Dir: project, ConfigDir: config, Env: env, Mode: event.ModeBypass, AllowBypass: true,
		Hooks: []event.HookMatcher{noShell}})
	if err != nil {
		fmt.Println("open:", err)
		return
	}
	defer s.Close()
	for ev, err := range s.Send(context.Background(), "clean up") {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		switch ev := ev.(type) {
		case event.ToolRefused:
			fmt.Println("refused by", ev.Rule+":", ev.Reason)
		case event.TurnFinished:
			fmt.Println(ev.Text)
		}
	}
	// Output:
	// refused by hook: A PreToolUse hook refused this call: no shell commands in this job
	// I will leave the build directory alone.
}

// SetMode switches a running session into plan mode; a session can be
// closed and resumed later by its id, with its conversation.
func Example_setModeAndResume() {
	env, stop := fakeModel(
		fakemodel.Reply{When: fakemodel.Match{LastUser: "the number is 42"}, Text: "Noted."},
		fakemodel.Reply{When: fakemodel.Match{LastUser: "which number", AnyMessage: "the number is 42"}, Text: "It was 42."},
	)
	defer stop()
	project, config, cleanup := scratch()
	defer cleanup()
	ctx := context.Background()

	s, err := sdk.Open(sdk.Options{Dir: project, ConfigDir: config, Env: env})
	if err != nil {
		fmt.Println("open:", err)
		return
	}
	for range s.Send(ctx, "the number is 42") {
	}
	if err := s.SetMode(event.ModePlan); err != nil {
		fmt.Println("set mode:", err)
	}
	id := s.ID()
	s.Close()

	s, err = sdk.Open(sdk.Options{Dir: project, ConfigDir: config, Env: env, Resume: id})
	if err != nil {
		fmt.Println("resume:", err)
		return
	}
	defer s.Close()
	fmt.Println("resumed in", s.Mode(), "mode")
	for ev := range s.Send(ctx, "which number was it?") {
		if done, ok := ev.(event.TurnFinished); ok {
			fmt.Println(done.Text)
		}
	}
	// Output:
	// resumed in plan mode
	// It was 42.
}
