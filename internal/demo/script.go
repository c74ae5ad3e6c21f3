package demo

import (
	"regexp"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// planFile finds the plan file the plan-mode reminder names.
var planFile = regexp.MustCompile(`(/\S+/plans/[a-z0-9_-]+\.md)`)

func planPath(r *fakemodel.Request) string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if m := planFile.FindString(r.Messages[i].Text); m != "" {
			return m
		}
	}
	return "plan.md"
}

// noToolResults matches a request that starts a turn.
func noToolResults(r *fakemodel.Request) bool { return len(r.LastUser().ToolResults) == 0 }

// resultsOf matches the request that carries the results of n calls.
func resultsOf(n int) func(*fakemodel.Request) bool {
	return func(r *fakemodel.Request) bool { return len(r.LastUser().ToolResults) == n }
}

const plan = `# Add a --shout flag to greet

## Context
greet prints "Hello, NAME!". Users want a louder variant for banners, without changing the default output.

## Approach
1. Add a boolean flag ` + "`--shout`" + ` in ` + "`main`" + ` (default false).
2. Keep ` + "`greeting`" + ` as it is, and upper-case its result in ` + "`main`" + ` when the flag is set, with ` + "`strings.ToUpper`" + `.
3. Add ` + "`main_test.go`" + ` with a table test for ` + "`greeting`" + ` and one for the shouted form.

## Critical files
- ` + "`main.go`" + `: flag parsing and output
- ` + "`main_test.go`" + `: new

## Reuse
- ` + "`greeting`" + ` in ` + "`main.go`" + `: unchanged, the single source of the text

## Verification
- ` + "`go test ./...`" + `
- ` + "`go run . -name Ada -shout`" + ` prints ` + "`HELLO, ADA!`" + `
`

const newMain = `// Command greet prints a greeting.
package main

import (
	"flag"
	"fmt"
	"strings"
)

func main() {
	name := flag.String("name", "world", "who to greet")
	shout := flag.Bool("shout", false, "print the greeting in capitals")
	flag.Parse()
	msg := greeting(*name)
	if *shout {
		msg = strings.ToUpper(msg)
	}
	fmt.Println(msg)
}

// greeting returns the greeting for name.
func greeting(name string) string {
	return "Hello, " + name + "!"
}
`

const newTest = `package main

import (
	"strings"
	"testing"
)

func TestGreeting(t *testing.T) {
	for name, want := range map[string]string{"world": "Hello, world!", "Ada": "Hello, Ada!"} {
		if got := greeting(name); got != want {
			t.Errorf("greeting(%q) = %q, want %q", name, got, want)
		}
	}
	if got := strings.ToUpper(greeting("Ada")); got != "HELLO, ADA!" {
		t.Errorf("shouted: %q", got)
	}
}
`

func call(name string, input map[string]any) fakemodel.ToolCall {
	return fakemodel.ToolCall{Name: name, Input: input}
}

// Script is the demo's model: it asks to plan, explores, writes the plan,
// asks for approval, and implements it once approved. It answers at a
// human pace.
func Script() fakemodel.Script { return script(true) }

func script(paced bool) fakemodel.Script {
	replies := []fakemodel.Reply{
		{Name: "ask to plan", When: fakemodel.Match{Func: noToolResults, LastUser: "shout"},
			Text:      "This changes the command's flags and output, so I would like to plan it with you before touching any file.",
			ToolCalls: []fakemodel.ToolCall{call("EnterPlanMode", map[string]any{})}},
		{Name: "declined", When: fakemodel.Match{ToolResult: "chose not to switch to plan mode"},
			Text: "Understood. In this demo the interesting part is plan mode, though: type /plan to try it, or /exit to leave."},
		{Name: "explore", When: fakemodel.Match{ToolResult: "Plan mode is on"},
			Text: "I'll explore first: plan mode lets me read, search and run read-only commands, and write only the plan file. An Explore agent looks for how flags are handled while I read the entry point.",
			ToolCalls: []fakemodel.ToolCall{
				call("Task", map[string]any{"description": "find flag handling", "subagent_type": "Explore",
					"prompt": "Find how greet parses flags and prints the greeting (quick). Report the files and functions involved."}),
				call("Read", map[string]any{"file_path": "main.go"}),
				call("Bash", map[string]any{"command": "ls -la && wc -l main.go"}),
			}},
		{Name: "explore agent", When: fakemodel.Match{FirstUser: "Find how greet parses flags", Func: noToolResults},
			ToolCalls: []fakemodel.ToolCall{
				call("Grep", map[string]any{"pattern": "flag\\.", "output_mode": "content"}),
				call("Glob", map[string]any{"pattern": "**/*.go"}),
			}},
		{Name: "explore agent report", When: fakemodel.Match{FirstUser: "Find how greet parses flags", Func: resultsOf(2)},
			Text: "greet has a single file, main.go: main() parses one flag (-name, via the standard flag package) and prints greeting(name). There are no tests yet."},
		{Name: "try to edit", When: fakemodel.Match{Func: resultsOf(3)},
			Text:      "There are no tests yet. Let me try to add one right away…",
			ToolCalls: []fakemodel.ToolCall{call("Write", map[string]any{"file_path": "main_test.go", "content": "package main\n"})}},
		{Name: "write plan", When: fakemodel.Match{ToolResult: "nothing but the plan file may change"},
			Text: "Right: plan mode refuses any change but the plan. I'll write the plan instead.",
			ToolCalls: []fakemodel.ToolCall{{Name: "Write", InputFunc: func(r *fakemodel.Request) any {
				return map[string]any{"file_path": planPath(r), "content": plan}
			}}}},
		{Name: "ask approval", When: fakemodel.Match{ToolResult: "Created"},
			Text:      "The plan is written. Here it is for your approval.",
			ToolCalls: []fakemodel.ToolCall{call("ExitPlanMode", map[string]any{})}},
		{Name: "implement", When: fakemodel.Match{ToolResult: "approved your plan"},
			Text: "Approved. Implementing the plan now.",
			ToolCalls: []fakemodel.ToolCall{
				call("Write", map[string]any{"file_path": "main.go", "content": newMain}),
				call("Write", map[string]any{"file_path": "main_test.go", "content": newTest}),
			}},
		{Name: "implement fresh", When: fakemodel.Match{LastUser: "Carry out this approved plan"},
			Text: "Starting from the approved plan in a fresh conversation.",
			ToolCalls: []fakemodel.ToolCall{
				call("Read", map[string]any{"file_path": "main.go"}),
			}},
		{Name: "implement fresh 2", When: fakemodel.Match{FirstUser: "Carry out this approved plan", ToolResult: "who to greet"},
			ToolCalls: []fakemodel.ToolCall{
				call("Write", map[string]any{"file_path": "main.go", "content": newMain}),
				call("Write", map[string]any{"file_path": "main_test.go", "content": newTest}),
			}},
		{Name: "done", When: fakemodel.Match{ToolResult: "main_test.go ("},
			Text: "Done: `--shout` prints the greeting in capitals, and `main_test.go` covers both forms.\n\nThis was a scripted demo: no model was called. Run `ponder` with `ANTHROPIC_API_KEY` set to work on your own code."},
		{Name: "rejected", When: fakemodel.Match{ToolResult: "did not approve the plan"},
			Text: "Thanks, I'll take that into account. (The demo's script ends here: in a real session the model would revise the plan file and ask again. Type /exit to leave.)"},
		{Name: "interrupted", When: fakemodel.Match{ToolResult: "Nobody approved the plan"},
			Text: "Nobody approved the plan, so plan mode stays on and nothing changes. Type /exit to leave the demo."},
		{Name: "anything else", Times: -1,
			Text: "This is a scripted demo, so my answers are fixed. Try /plan, Shift+Tab or /help, or /exit to leave."},
	}
	for i := range replies {
		if paced {
			replies[i] = pace(replies[i])
		}
	}
	return fakemodel.Script{Replies: replies}
}
