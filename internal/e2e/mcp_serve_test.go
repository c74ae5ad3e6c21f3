package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// serveClient is the TypeScript SDK client of testdata/mcp, copied next to
// a link to the installed clients.
func serveClient(t *testing.T) string {
	t.Helper()
	modules := nodeModules(t, "@modelcontextprotocol/sdk")
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "mcp", "client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "client.mjs")
	if err := os.WriteFile(script, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return script
}

// clientCall is one call the client makes.
type clientCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// clientRun is what the client printed.
type clientRun struct {
	Tools []struct {
		Name        string         `json:"name"`
		Annotations map[string]any `json:"annotations"`
	} `json:"tools"`
	Calls []struct {
		Name   string `json:"name"`
		Result struct {
			IsError           bool `json:"isError"`
			Content           []struct{ Text string }
			StructuredContent map[string]any `json:"structuredContent"`
		} `json:"result"`
		Logs     []string `json:"logs"`
		Progress int      `json:"progress"`
	} `json:"calls"`
}

// runClient runs the client against `ponder mcp serve` in w's project.
func runClient(t *testing.T, w *world, script string, calls ...clientCall) clientRun {
	t.Helper()
	return runClientWith(t, w, script, nil, calls...)
}

// runClientWith is runClient with flags for ponder mcp serve.
func runClientWith(t *testing.T, w *world, script string, serveArgs []string, calls ...clientCall) clientRun {
	t.Helper()
	data, _ := json.Marshal(calls)
	args, _ := json.Marshal(append([]string{}, serveArgs...))
	saved := w.extraEnv
	w.extraEnv = append(append([]string(nil), saved...), "PONDER_BIN="+ponderBin, "PROJECT_DIR="+w.dir, "CALLS="+string(data), "SERVE_ARGS="+string(args))
	defer func() { w.extraEnv = saved }()
	o := w.runProgram("node", script)
	if o.code != 0 {
		t.Fatalf("the MCP client failed (exit %d):\n%s\n%s", o.code, o.stdout, o.stderr)
	}
	var run clientRun
	if err := json.Unmarshal([]byte(strings.TrimSpace(o.stdout)), &run); err != nil {
		t.Fatalf("client output: %v\n%s", err, o.stdout)
	}
	if len(run.Calls) != len(calls) {
		t.Fatalf("client made %d calls, want %d", len(run.Calls), len(calls))
	}
	return run
}

// Another agent plans a task through ponder's MCP server: nothing in the
// project changes and the plan comes back with its session; a second
// client process carries the plan out by that session id.
func TestMCPServePlanThenImplement(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		script := serveClient(t)
		w := newWorld(t, api,
			writePlan(fakemodel.Match{LastUser: "add a greeting"}),
			exitPlan,
			implement("approved your plan"),
			finished,
		)
		w.write("README.md", "a project\n")
		run := runClient(t, w, script, clientCall{Name: "plan", Arguments: map[string]any{"task": "add a greeting"}})
		var names []string
		for _, tl := range run.Tools {
			names = append(names, tl.Name)
		}
		slices.Sort(names)
		if !slices.Equal(names, []string{"ask", "implement", "plan"}) {
			t.Fatalf("tools: %v", names)
		}
		plan := run.Calls[0]
		sc := plan.Result.StructuredContent
		if plan.Result.IsError || sc["status"] != "plan_pending" || sc["plan"] != thePlan {
			t.Fatalf("plan result: %+v", plan.Result)
		}
		planFile, _ := sc["plan_file"].(string)
		if data, err := os.ReadFile(planFile); err != nil || string(data) != thePlan {
			t.Errorf("plan file %s: %q, %v", planFile, data, err)
		}
		if got := w.read("hello.txt"); got != "<missing>" {
			t.Fatalf("planning changed the project: hello.txt = %q", got)
		}
		for _, want := range []string{"session_started", "plan_mode_entered", "tool_refused", "plan_exit_requested"} {
			if !slices.Contains(plan.Logs, want) {
				t.Errorf("no %s log notification during plan; got %v", want, plan.Logs)
			}
		}
		if plan.Progress == 0 {
			t.Error("no progress notifications during plan")
		}
		session, _ := sc["session_id"].(string)
		if session == "" {
			t.Fatal("plan returned no session_id")
		}

		// A client may not pick bypass: ponder serve was not started with
		// --dangerously-skip-permissions. Nothing changes, and the plan
		// still waits.
		run = runClient(t, w, script, clientCall{Name: "implement", Arguments: map[string]any{"session_id": session, "option": "bypass"}})
		if r := run.Calls[0].Result; !r.IsError && r.StructuredContent["permission_mode"] == "bypassPermissions" {
			t.Fatalf("a client turned on bypassPermissions: %+v", r)
		}
		if got := w.read("hello.txt"); got != "<missing>" {
			t.Fatalf("implement with bypass changed the project: %q", got)
		}

		run = runClient(t, w, script, clientCall{Name: "implement", Arguments: map[string]any{"session_id": session}})
		impl := run.Calls[0]
		if impl.Result.IsError || impl.Result.StructuredContent["status"] != "done" || impl.Result.StructuredContent["session_id"] != session {
			t.Fatalf("implement result: %+v", impl.Result)
		}
		if got := w.read("hello.txt"); got != "hello\n" {
			t.Errorf("the approved plan was not carried out: hello.txt = %q", got)
		}
		if !slices.Contains(impl.Logs, "plan_approved") {
			t.Errorf("no plan_approved log notification during implement; got %v", impl.Logs)
		}
		w.allUsed()
	})
}

// implement refuses a session with no plan waiting; a second implement of
// the same plan finds nothing left to approve.
func TestMCPServeImplementNeedsPendingPlan(t *testing.T) {
	script := serveClient(t)
	w := newWorld(t, "anthropic", fakemodel.Reply{Name: "answer", Text: "It is a small project."})
	run := runClient(t, w, script,
		clientCall{Name: "ask", Arguments: map[string]any{"question": "what is this?"}},
		clientCall{Name: "implement", Arguments: map[string]any{"session_id": "$session"}},
	)
	if r := run.Calls[1].Result; !r.IsError || !strings.Contains(r.Content[0].Text, "no plan waiting") {
		t.Errorf("implement without a pending plan: %+v", r)
	}
}

// ask only reads: a write the model attempts is refused and the project
// is unchanged; the answer comes back.
func TestMCPServeAskOnlyReads(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		script := serveClient(t)
		w := newWorld(t, api,
			fakemodel.Reply{Name: "try to write", When: fakemodel.Match{LastUser: "what does main do"}, ToolCalls: []fakemodel.ToolCall{
				{Name: "Read", Input: map[string]any{"file_path": "main.go"}},
				{Name: "Write", Input: map[string]any{"file_path": "main.go", "content": "changed"}},
				{Name: "Bash", Input: map[string]any{"command": "touch made-by-ask"}},
			}},
			fakemodel.Reply{Name: "answer", When: fakemodel.Match{ToolResult: "may only read"}, Text: "main prints hello."},
		)
		w.write("main.go", "package main\n")
		run := runClient(t, w, script, clientCall{Name: "ask", Arguments: map[string]any{"question": "what does main do"}})
		r := run.Calls[0].Result
		if r.IsError || r.StructuredContent["result"] != "main prints hello." {
			t.Errorf("ask result: %+v", r)
		}
		if got := w.read("main.go"); got != "package main\n" {
			t.Errorf("ask changed main.go: %q", got)
		}
		if got := w.read("made-by-ask"); got != "<missing>" {
			t.Errorf("ask ran a writing command")
		}
		w.allUsed()
	})
}

// Nobody can say yes to a served session, so a command that is not
// read-only runs in implement only when ponder mcp serve was started with
// a rule allowing it; ask reads only, whatever the rules say.
func TestMCPServeAllowedTools(t *testing.T) {
	script := serveClient(t)
	for _, allowed := range []bool{false, true} {
		t.Run(fmt.Sprintf("allowed=%v", allowed), func(t *testing.T) {
			w := newWorld(t, "openai",
				writePlan(fakemodel.Match{LastUser: "add a greeting"}),
				exitPlan,
				fakemodel.Reply{Name: "build", When: fakemodel.Match{LastUser: "approved your plan"}, ToolCalls: []fakemodel.ToolCall{
					{Name: "Bash", Input: map[string]any{"command": "touch built.txt"}},
				}},
				fakemodel.Reply{Name: "built", When: fakemodel.Match{FirstUser: "add a greeting", Func: func(r *fakemodel.Request) bool {
					return len(r.LastUser().ToolResults) == 1 && len(r.Messages) > 5
				}}, Text: "built"},
				fakemodel.Reply{Name: "ask build", When: fakemodel.Match{FirstUser: "touch it"}, ToolCalls: []fakemodel.ToolCall{
					{Name: "Bash", Input: map[string]any{"command": "touch asked.txt"}},
				}},
				fakemodel.Reply{Name: "ask end", When: fakemodel.Match{FirstUser: "touch it", ToolResult: "may only read"}, Text: "no"},
			)
			var args []string
			if allowed {
				args = []string{"--allowedTools", "Bash(touch:*)"}
			}
			run := runClientWith(t, w, script, args,
				clientCall{Name: "plan", Arguments: map[string]any{"task": "add a greeting"}},
				clientCall{Name: "implement", Arguments: map[string]any{"session_id": "$session"}},
				clientCall{Name: "ask", Arguments: map[string]any{"question": "touch it"}},
			)
			for _, c := range run.Calls {
				if c.Result.IsError {
					t.Fatalf("%s: %+v", c.Name, c.Result)
				}
			}
			if w.exists("built.txt") != allowed {
				t.Errorf("allowed=%v, but built.txt exists=%v", allowed, w.exists("built.txt"))
			}
			if w.exists("asked.txt") {
				t.Error("ask ran a writing command")
			}
			w.allUsed()
		})
	}
}
