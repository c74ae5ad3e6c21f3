package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// These tests drive the real ponder binary with the real Claude Agent SDK
// for TypeScript, through pathToClaudeCodeExecutable and no wrapper, as a
// program embedding the SDK would (testdata/sdk/driver.mjs). The evidence
// is read from disk and from the fake model's request log as well as
// from what the SDK hands its host.

// sdkRun is what a driver scenario saw.
type sdkRun struct {
	t      *testing.T
	lines  []map[string]any
	stderr string
}

// runSDK runs a driver scenario against w and returns what the host saw.
func runSDK(t *testing.T, w *world, scenario string, env ...string) sdkRun {
	t.Helper()
	return runSDKDriver(t, w, "driver.mjs", append([]string{"SCENARIO=" + scenario}, env...)...)
}

// runSDKDriver runs one of the drivers of testdata/sdk against w.
func runSDKDriver(t *testing.T, w *world, name string, env ...string) sdkRun {
	t.Helper()
	modules := nodeModules(t, "@anthropic-ai/claude-agent-sdk")
	driver, err := filepath.Abs(filepath.Join("testdata", "sdk", name))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", driver)
	cmd.Dir = w.dir
	cmd.Env = append(w.env(), "PONDER_BIN="+ponderBin, "PROJECT_DIR="+w.dir,
		"SDK_MODULE="+filepath.Join(modules, "@anthropic-ai", "claude-agent-sdk", "sdk.mjs"), "ZOD_MODULE="+filepath.Join(modules, "zod", "index.js"))
	cmd.Env = append(cmd.Env, env...)
	var errb strings.Builder
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if ctx.Err() != nil {
		t.Fatalf("the SDK driver did not finish; stderr:\n%s\nstdout:\n%s", errb.String(), out)
	}
	if err != nil {
		t.Fatalf("the SDK driver failed: %v\nstderr:\n%s\nstdout:\n%s", err, errb.String(), out)
	}
	r := sdkRun{t: t, lines: lines(t, string(out)), stderr: errb.String()}
	if e := r.find("error"); e != nil {
		t.Fatalf("query() threw: %v\nstderr:\n%s", e["error"], r.stderr)
	}
	if r.find("done") == nil {
		t.Fatalf("the driver did not finish:\n%s", out)
	}
	return r
}

// find returns the first line of a kind.
func (r sdkRun) find(kind string) map[string]any {
	for _, l := range r.lines {
		if l["kind"] == kind {
			return l
		}
	}
	return nil
}

// all returns the lines of a kind.
func (r sdkRun) all(kind string) []map[string]any {
	var out []map[string]any
	for _, l := range r.lines {
		if l["kind"] == kind {
			out = append(out, l)
		}
	}
	return out
}

// messages returns the SDK messages of a type (and subtype, if given).
func (r sdkRun) messages(typ string, subtype ...string) []map[string]any {
	var out []map[string]any
	for _, l := range r.all("message") {
		m, _ := l["message"].(map[string]any)
		if m["type"] == typ && (len(subtype) == 0 || m["subtype"] == subtype[0]) {
			out = append(out, m)
		}
	}
	return out
}

// knownTypes are the message types the SDK's hosts know.
var knownTypes = map[string]bool{"system": true, "assistant": true, "user": true, "result": true, "stream_event": true}

// checkTypes fails the test for a message of a type the SDK's hosts do
// not know.
func (r sdkRun) checkTypes() {
	r.t.Helper()
	for _, l := range r.all("message") {
		m, _ := l["message"].(map[string]any)
		if !knownTypes[fmt.Sprint(m["type"])] {
			r.t.Errorf("a message of a type SDK hosts do not know: %v", m)
		}
	}
}

// result returns the last result message.
func (r sdkRun) result() map[string]any {
	r.t.Helper()
	res := r.messages("result")
	if len(res) == 0 {
		r.t.Fatalf("no result message; stderr:\n%s\nlines: %v", r.stderr, r.lines)
	}
	return res[len(res)-1]
}

// asked returns the tools canUseTool was asked about, in order.
func (r sdkRun) asked() []string {
	var out []string
	for _, l := range r.all("can_use_tool") {
		out = append(out, fmt.Sprint(l["tool"]))
	}
	return out
}

func TestAgentSDKTextTurn(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, fakemodel.Reply{When: fakemodel.Match{LastUser: "say hello"}, Text: "Hello from ponder."})
		r := runSDK(t, w, "text")
		r.checkTypes()
		init := r.messages("system", "init")
		if len(init) != 1 || init[0]["permissionMode"] != "default" || init[0]["session_id"] == "" || init[0]["uuid"] == nil {
			t.Fatalf("init message %v", init)
		}
		for _, key := range []string{"apiKeySource", "mcp_servers", "slash_commands", "tools", "model", "cwd"} {
			if _, ok := init[0][key]; !ok {
				t.Errorf("init lacks %s: %v", key, init[0])
			}
		}
		as := r.messages("assistant")
		if len(as) != 1 {
			t.Fatalf("assistant messages %v", as)
		}
		msg, _ := as[0]["message"].(map[string]any)
		if msg["id"] == nil || msg["model"] == nil || msg["stop_reason"] != "end_turn" || as[0]["uuid"] == nil {
			t.Errorf("assistant message lacks what the SDK reads: %v", as[0])
		}
		if _, ok := as[0]["parent_tool_use_id"]; !ok || as[0]["parent_tool_use_id"] != nil {
			t.Errorf("parent_tool_use_id of the main conversation: %v", as[0])
		}
		res := r.result()
		if res["subtype"] != "success" || res["is_error"] != false || res["result"] != "Hello from ponder." {
			t.Errorf("result %v", res)
		}
		for _, key := range []string{"duration_api_ms", "total_cost_usd", "usage", "permission_denials", "num_turns", "uuid"} {
			if _, ok := res[key]; !ok {
				t.Errorf("result lacks %s: %v", key, res)
			}
		}
		w.allUsed()
	})
}

// planReplies script a plan-mode session: read, write the plan, ask to
// leave plan mode; then, once approved, create hello.txt.
func planReplies() []fakemodel.Reply {
	return []fakemodel.Reply{
		{Name: "read", When: fakemodel.Match{LastUser: "add a greeting"}, ToolCalls: []fakemodel.ToolCall{{Name: "Read", Input: map[string]any{"file_path": "README.md"}}}},
		{Name: "plan", When: fakemodel.Match{ToolResult: "A tiny project"}, ToolCalls: []fakemodel.ToolCall{{Name: "Write", InputFunc: func(r *fakemodel.Request) any {
			return map[string]any{"file_path": planPath(r), "content": thePlan}
		}}}},
		{Name: "exit", When: fakemodel.Match{ToolResult: "plans/"}, ToolCalls: []fakemodel.ToolCall{{Name: "ExitPlanMode", Input: map[string]any{}}}},
	}
}

func TestAgentSDKPlanApprovedThroughCanUseTool(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		replies := append(planReplies(),
			fakemodel.Reply{Name: "implement", When: fakemodel.Match{ToolResult: "approved"}, ToolCalls: []fakemodel.ToolCall{
				{Name: "Write", Input: map[string]any{"file_path": "hello.txt", "content": "hello\n"}}}},
			fakemodel.Reply{Name: "done", When: fakemodel.Match{ToolResult: "hello.txt"}, Text: "Done."})
		w := newWorld(t, api, replies...)
		w.write("README.md", "A tiny project\n")
		r := runSDK(t, w, "plan-approve")
		r.checkTypes()
		entered := false
		for _, m := range r.messages("system", "ponder_event") {
			entered = entered || m["event"] == "plan_approved"
		}
		if !entered {
			t.Error("no plan_approved event reached the host")
		}
		if init := r.messages("system", "init"); len(init) == 0 || init[0]["permissionMode"] != "plan" {
			t.Errorf("init under --permission-mode plan: %v", init)
		}
		// Only the plan exit needed the host: the write after approval
		// passes in acceptEdits, the mode the host chose.
		if got := r.asked(); len(got) != 1 || got[0] != "ExitPlanMode" {
			t.Fatalf("canUseTool asked about %v, want only ExitPlanMode", got)
		}
		input, _ := r.all("can_use_tool")[0]["input"].(map[string]any)
		if input["plan"] != thePlan || !strings.HasSuffix(fmt.Sprint(input["planFilePath"]), ".md") {
			t.Errorf("ExitPlanMode input %v", input)
		}
		if r.all("can_use_tool")[0]["tool_use_id"] == nil {
			t.Error("the ExitPlanMode question has no tool_use_id")
		}
		if w.read("hello.txt") != "hello\n" {
			t.Errorf("hello.txt = %q after approval", w.read("hello.txt"))
		}
		if res := r.result(); res["subtype"] != "success" || res["permission_mode"] != "acceptEdits" {
			t.Errorf("result %v", res)
		}
		w.allUsed()
	})
}

func TestAgentSDKPlanRejectedThroughCanUseTool(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		replies := append(planReplies(),
			// After the rejection the model tries to write anyway.
			fakemodel.Reply{Name: "sneak", When: fakemodel.Match{ToolResult: "use a token bucket instead"}, ToolCalls: []fakemodel.ToolCall{
				{Name: "Write", Input: map[string]any{"file_path": "hello.txt", "content": "hello\n"}}}},
			fakemodel.Reply{Name: "give up", When: fakemodel.Match{ToolResult: "Plan mode"}, Text: "I will revise the plan."})
		w := newWorld(t, api, replies...)
		w.write("README.md", "A tiny project\n")
		r := runSDK(t, w, "plan-reject")
		if got := r.asked(); len(got) != 1 || got[0] != "ExitPlanMode" {
			t.Fatalf("canUseTool asked about %v, want only ExitPlanMode", got)
		}
		if w.read("hello.txt") != "<missing>" {
			t.Error("hello.txt was written after the plan was rejected")
		}
		res := r.result()
		if res["permission_mode"] != "plan" {
			t.Errorf("mode after rejection: %v", res["permission_mode"])
		}
		denials, _ := res["permission_denials"].([]any)
		if len(denials) != 1 || denials[0].(map[string]any)["tool_name"] != "Write" {
			t.Errorf("permission_denials %v", res["permission_denials"])
		}
		if len(r.messages("system", "permission_denied")) != 1 {
			t.Errorf("permission_denied messages: %v", r.messages("system", "permission_denied"))
		}
		w.allUsed()
	})
}

// Unlike Claude Code, a host that allows everything does not open plan
// mode: the write is refused before the host is asked. The command is
// asked about where a sandbox can hold it, and the host's yes runs it
// there, where its write fails.
func TestAgentSDKHostCannotAllowWritesInPlanMode(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, calls("write it now",
			fakemodel.ToolCall{Name: "Write", Input: map[string]any{"file_path": "hello.txt", "content": "hi"}},
			fakemodel.ToolCall{Name: "Bash", Input: map[string]any{"command": "touch touched.txt"}})...)
		r := runSDK(t, w, "plan-host-allows-write")
		asked := r.asked()
		if len(asked) > 1 || len(asked) == 1 && asked[0] != "Bash" {
			t.Errorf("the host was asked about %v in plan mode", asked)
		}
		if w.read("hello.txt") != "<missing>" || w.read("touched.txt") != "<missing>" {
			t.Error("plan mode let a change through")
		}
		denied := r.messages("system", "permission_denied")
		if len(denied) != 2-len(asked) || !strings.Contains(fmt.Sprint(denied[0]["message"]), "Plan mode") {
			t.Errorf("the host was not told why: %v", denied)
		}
		for _, res := range lastResults(t, w, 2) {
			if !failed(res) {
				t.Errorf("the model was not told of the refusal: %+v", res)
			}
		}
	})
}

func TestAgentSDKWriteAllowedAndDenied(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		write := fakemodel.ToolCall{Name: "Write", Input: map[string]any{"file_path": "new.txt", "content": "made\n"}}

		w := newWorld(t, api, calls("create the file", write)...)
		r := runSDK(t, w, "write-allow")
		if got := r.asked(); len(got) != 1 || got[0] != "Write" {
			t.Fatalf("canUseTool asked about %v", got)
		}
		if s := r.all("can_use_tool")[0]; s["tool_use_id"] == nil || s["reason"] == nil {
			t.Errorf("can_use_tool lacks tool_use_id or decision_reason: %v", s)
		}
		if w.read("new.txt") != "made\n" {
			t.Errorf("allowed write: new.txt = %q", w.read("new.txt"))
		}

		w = newWorld(t, api, calls("create the file", write)...)
		r = runSDK(t, w, "write-deny")
		if w.read("new.txt") != "<missing>" {
			t.Error("the refused write happened")
		}
		res := lastResults(t, w, 1)
		if !failed(res[0]) || !strings.Contains(res[0].Content, "not that file") {
			t.Errorf("the model was not told the host's reason: %+v", res[0])
		}
		if d, _ := r.result()["permission_denials"].([]any); len(d) != 1 {
			t.Errorf("permission_denials %v", r.result()["permission_denials"])
		}
	})
}

// A host's changed input is judged again: moving a write to a file a
// deny rule covers does not get it written.
func TestAgentSDKChangedInputIsJudgedAgain(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, calls("create the file", fakemodel.ToolCall{Name: "Write", Input: map[string]any{"file_path": "new.txt", "content": "made\n"}})...)
		w.write(".ponder/settings.json", `{"permissions":{"deny":["Edit(secret.txt)"]}}`)
		r := runSDK(t, w, "write-redirect", "REDIRECT_TO="+filepath.Join(w.dir, "secret.txt"))
		if len(r.asked()) != 1 {
			t.Fatalf("asked %v", r.asked())
		}
		if w.read("secret.txt") != "<missing>" || w.read("new.txt") != "<missing>" {
			t.Errorf("secret.txt %q, new.txt %q: the changed write was not refused", w.read("secret.txt"), w.read("new.txt"))
		}
		if res := lastResults(t, w, 1); !failed(res[0]) || !strings.Contains(res[0].Content, "Edit(secret.txt)") {
			t.Errorf("result %+v", res[0])
		}

		// A change the rules allow is carried out with the new input.
		w = newWorld(t, api, calls("create the file", fakemodel.ToolCall{Name: "Write", Input: map[string]any{"file_path": "new.txt", "content": "made\n"}})...)
		runSDK(t, w, "write-redirect", "REDIRECT_TO="+filepath.Join(w.dir, "other.txt"))
		if w.read("other.txt") != "made\n" || w.read("new.txt") != "<missing>" {
			t.Errorf("other.txt %q, new.txt %q", w.read("other.txt"), w.read("new.txt"))
		}
	})
}

func TestAgentSDKAskUserQuestion(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, calls("pick a colour", fakemodel.ToolCall{Name: "AskUserQuestion", Input: map[string]any{
			"questions": []any{map[string]any{"question": "Which colour?", "header": "Colour", "multiSelect": false,
				"options": []any{map[string]any{"label": "Red", "description": "warm"}, map[string]any{"label": "Blue", "description": "cool"}}}}}})...)
		r := runSDK(t, w, "ask-question")
		if got := r.asked(); len(got) != 1 || got[0] != "AskUserQuestion" {
			t.Fatalf("canUseTool asked about %v", got)
		}
		res := lastResults(t, w, 1)
		if failed(res[0]) || !strings.Contains(res[0].Content, `"Which colour?": Blue`) {
			t.Errorf("the model did not get the answer: %+v", res[0])
		}
	})
}

func TestAgentSDKHookBlocksATool(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, calls("run it",
			fakemodel.ToolCall{Name: "Bash", Input: map[string]any{"command": "touch ran.txt"}},
			fakemodel.ToolCall{Name: "Write", Input: map[string]any{"file_path": "written.txt", "content": "ok\n"}})...)
		r := runSDK(t, w, "hook-blocks")
		if w.read("ran.txt") != "<missing>" {
			t.Error("the command the hook blocked ran")
		}
		if w.read("written.txt") != "ok\n" {
			t.Error("the write the hook did not match was not made")
		}
		hooks := r.all("hook")
		if len(hooks) != 2 {
			t.Fatalf("hooks called %d times: %v", len(hooks), hooks)
		}
		var pre map[string]any
		for _, h := range hooks {
			in, _ := h["input"].(map[string]any)
			if in["hook_event_name"] == "PreToolUse" {
				pre = in
			}
		}
		if pre == nil || pre["tool_name"] != "Bash" || pre["session_id"] == "" || pre["tool_use_id"] == nil {
			t.Errorf("PreToolUse input %v", pre)
		}
		res := lastResults(t, w, 2)
		if !failed(res[0]) || !strings.Contains(res[0].Content, "no shell today") {
			t.Errorf("the model was not told the hook's reason: %+v", res[0])
		}
		first := w.srv.Requests()[0]
		if !strings.Contains(fmt.Sprint(first.Messages), "the user prefers tabs") {
			t.Error("the UserPromptSubmit hook's context did not reach the model")
		}
	})
}

func TestAgentSDKMaxTurns(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, fakemodel.Reply{When: fakemodel.Match{LastUser: "look around"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "LS", Input: map[string]any{"path": "."}}}})
		r := runSDK(t, w, "max-turns")
		res := r.result()
		if res["subtype"] != "error_max_turns" || res["is_error"] != true {
			t.Errorf("result %v", res)
		}
		if errs, _ := res["errors"].([]any); len(errs) == 0 {
			t.Errorf("an error result without errors: %v", res)
		}
		if n := len(w.srv.Requests()); n != 1 {
			t.Errorf("%d model requests with maxTurns 1", n)
		}
	})
}

func TestAgentSDKSetPermissionModePlan(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "first", When: fakemodel.Match{LastUser: "first"}, Text: "ok"},
			fakemodel.Reply{Name: "second", When: fakemodel.Match{LastUser: "second"}, ToolCalls: []fakemodel.ToolCall{
				{Name: "Write", Input: map[string]any{"file_path": "late.txt", "content": "x"}}}},
			fakemodel.Reply{Name: "after", When: fakemodel.Match{ToolResult: "Plan mode"}, Text: "refused, as expected"})
		r := runSDK(t, w, "set-mode")
		call := r.find("call")
		if v, _ := call["value"].(map[string]any); v["mode"] != "plan" {
			t.Errorf("setPermissionMode returned %v", call["value"])
		}
		if w.read("late.txt") != "<missing>" || len(r.asked()) != 0 {
			t.Errorf("after setPermissionMode('plan') the write happened or was asked about (%v)", r.asked())
		}
		reqs := w.srv.Requests()
		if !strings.Contains(strings.ToLower(fmt.Sprint(reqs[1].Messages)), "plan mode") {
			t.Error("the second request does not carry the plan-mode reminder")
		}
		w.allUsed()
	})
}

func TestAgentSDKInterrupt(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		// The story streams a piece every second for a minute or more;
		// the host interrupts once the first piece arrives.
		story := strings.Repeat("and then the story went on. ", 60)
		w := newWorld(t, api, fakemodel.Reply{When: fakemodel.Match{LastUser: "long story"}, Text: story, ChunkDelay: fakemodel.Duration(time.Second)})
		start := time.Now()
		r := runSDK(t, w, "interrupt")
		if took := time.Since(start); took > 30*time.Second {
			t.Errorf("the interrupted turn took %s", took)
		}
		if r.find("call") == nil {
			t.Fatal("interrupt() was never called: no stream_event arrived")
		}
		res := r.result()
		if res["is_error"] != true || !strings.Contains(fmt.Sprint(res["errors"]), "interrupted") {
			t.Errorf("result after interrupt %v", res)
		}
	})
}

func TestAgentSDKControlRequests(t *testing.T) {
	w := newWorld(t, "anthropic", fakemodel.Reply{When: fakemodel.Match{LastUser: "hello"}, Text: "hi"})
	r := runSDK(t, w, "controls")
	got := map[string]any{}
	for _, c := range r.all("call") {
		got[fmt.Sprint(c["name"])] = c["value"]
	}
	if cmds, _ := got["supportedCommands"].([]any); len(cmds) == 0 {
		t.Errorf("supportedCommands %v", got["supportedCommands"])
	}
	if _, ok := got["mcpServerStatus"].([]any); !ok {
		t.Errorf("mcpServerStatus %v", got["mcpServerStatus"])
	}
	if u, _ := got["getContextUsage"].(map[string]any); u["maxTokens"] == nil {
		t.Errorf("getContextUsage %v", got["getContextUsage"])
	}
	if reqs := w.srv.Requests(); len(reqs) != 1 || reqs[0].Model != "other-model" {
		t.Errorf("setModel did not reach the next request: %+v", reqs)
	}
	data, _ := json.Marshal(r.result())
	if !strings.Contains(string(data), `"subtype":"success"`) {
		t.Errorf("result %s", data)
	}

}

// EnterPlanMode asks the host; once in plan mode, the host's edit of the
// plan replaces the plan file, and the model is told it was edited.
func TestAgentSDKEnterPlanModeAndEditThePlan(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "enter", When: fakemodel.Match{LastUser: "plan a greeting"}, ToolCalls: []fakemodel.ToolCall{{Name: "EnterPlanMode", Input: map[string]any{}}}},
			fakemodel.Reply{Name: "plan", When: fakemodel.Match{LastUser: "/plans/"}, ToolCalls: []fakemodel.ToolCall{{Name: "Write", InputFunc: func(r *fakemodel.Request) any {
				return map[string]any{"file_path": planPath(r), "content": thePlan}
			}}}},
			fakemodel.Reply{Name: "exit", When: fakemodel.Match{ToolResult: "plans/"}, ToolCalls: []fakemodel.ToolCall{{Name: "ExitPlanMode", Input: map[string]any{}}}},
			fakemodel.Reply{Name: "done", When: fakemodel.Match{ToolResult: "goodbye"}, Text: "Will do."})
		r := runSDK(t, w, "enter-and-edit")
		if got := r.asked(); len(got) != 2 || got[0] != "EnterPlanMode" || got[1] != "ExitPlanMode" {
			t.Fatalf("canUseTool asked about %v", got)
		}
		input, _ := r.all("can_use_tool")[1]["input"].(map[string]any)
		data, err := os.ReadFile(fmt.Sprint(input["planFilePath"]))
		if err != nil || !strings.Contains(string(data), "Also say goodbye") {
			t.Errorf("plan file after the host's edit: %q %v", data, err)
		}
		if res := r.result(); res["permission_mode"] != "default" {
			t.Errorf("mode after approval: %v", res["permission_mode"])
		}
		w.allUsed()
	})
}

func TestAgentSDKPostToolUseAndStopHooks(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "ls", When: fakemodel.Match{LastUser: "list files"}, ToolCalls: []fakemodel.ToolCall{{Name: "LS", Input: map[string]any{"path": "."}}}},
			fakemodel.Reply{Name: "first stop", When: fakemodel.Match{ToolResult: "remember to check the tests"}, Text: "Listed."},
			fakemodel.Reply{Name: "summary", When: fakemodel.Match{LastUser: "summarise what you found first"}, Text: "Summary: one file."})
		w.write("a.txt", "a\n")
		r := runSDK(t, w, "post-and-stop")
		var events []string
		for _, h := range r.all("hook") {
			in, _ := h["input"].(map[string]any)
			events = append(events, fmt.Sprint(in["hook_event_name"], ":", in["stop_hook_active"]))
		}
		want := []string{"PostToolUse:<nil>", "Stop:false", "Stop:true"}
		if fmt.Sprint(events) != fmt.Sprint(want) {
			t.Errorf("hooks ran %v, want %v", events, want)
		}
		if res := r.result(); res["result"] != "Summary: one file." {
			t.Errorf("result %v", res["result"])
		}
		w.allUsed()
	})
}

// Interrupting while the host's canUseTool still decides withdraws the
// question: the SDK aborts the callback's signal, and the call never runs.
func TestAgentSDKInterruptWithdrawsTheQuestion(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, calls("create the file", fakemodel.ToolCall{Name: "Write", Input: map[string]any{"file_path": "new.txt", "content": "x"}})[0])
		r := runSDK(t, w, "cancel-question")
		// The abort must come from ponder withdrawing the question, before
		// the turn's result, not from the SDK closing down afterwards.
		aborted, result := -1, -1
		for i, l := range r.lines {
			if l["kind"] == "aborted" && aborted < 0 {
				aborted = i
			}
			if m, _ := l["message"].(map[string]any); m["type"] == "result" && result < 0 {
				result = i
			}
		}
		if aborted < 0 || result < 0 || aborted > result {
			t.Errorf("canUseTool aborted at line %d, result at line %d: the question was not withdrawn with the turn", aborted, result)
		}
		if w.read("new.txt") != "<missing>" {
			t.Error("the withdrawn call ran")
		}
		if res := r.result(); res["is_error"] != true {
			t.Errorf("result %v", res)
		}
	})
}

func TestAgentSDKResume(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "first", When: fakemodel.Match{LastUser: "the number is 42"}, Text: "Noted."},
			fakemodel.Reply{Name: "second", When: fakemodel.Match{LastUser: "which number", AnyMessage: "the number is 42"}, Text: "It was 42."})
		r := runSDK(t, w, "resume")
		res := r.messages("result")
		if len(res) != 2 || res[1]["result"] != "It was 42." || res[0]["session_id"] != res[1]["session_id"] {
			t.Errorf("results %v", res)
		}
		w.allUsed()
	})
}

// A subagent's messages name the Task call that launched it.
func TestAgentSDKSubagentMessagesNameTheirTask(t *testing.T) {
	w := newWorld(t, "anthropic",
		fakemodel.Reply{Name: "delegate", When: fakemodel.Match{LastUser: "delegate the search"}, ToolCalls: []fakemodel.ToolCall{
			{ID: "toolu_task1", Name: "Task", Input: map[string]any{"description": "search", "prompt": "explore the code", "subagent_type": "Explore"}}}},
		fakemodel.Reply{Name: "explore", When: fakemodel.Match{FirstUser: "explore the code"}, Text: "found nothing"},
		fakemodel.Reply{Name: "done", When: fakemodel.Match{ToolResult: "found nothing"}, Text: "The search found nothing."})
	r := runSDK(t, w, "delegate")
	parents := map[string]int{}
	for _, m := range r.messages("assistant") {
		parents[fmt.Sprint(m["parent_tool_use_id"])]++
	}
	if parents["toolu_task1"] != 1 || parents["<nil>"] != 2 {
		t.Errorf("assistant messages by parent: %v", parents)
	}
	if res := r.result(); res["result"] != "The search found nothing." {
		t.Errorf("result %v", res["result"])
	}
	w.allUsed()
}

// A model taught the older ExitPlanMode, which carries the plan in its
// input, works too: the plan becomes the plan file, the host sees it.
func TestAgentSDKPlanGivenToExitPlanMode(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "read", When: fakemodel.Match{LastUser: "add a greeting"}, ToolCalls: []fakemodel.ToolCall{{Name: "Read", Input: map[string]any{"file_path": "README.md"}}}},
			fakemodel.Reply{Name: "exit", When: fakemodel.Match{ToolResult: "A tiny project"}, ToolCalls: []fakemodel.ToolCall{{Name: "ExitPlanMode", Input: map[string]any{"plan": thePlan}}}},
			fakemodel.Reply{Name: "implement", When: fakemodel.Match{ToolResult: "approved"}, ToolCalls: []fakemodel.ToolCall{
				{Name: "Write", Input: map[string]any{"file_path": "hello.txt", "content": "hello\n"}}}},
			fakemodel.Reply{Name: "done", When: fakemodel.Match{ToolResult: "hello.txt"}, Text: "Done."})
		w.write("README.md", "A tiny project\n")
		r := runSDK(t, w, "plan-approve")
		if got := r.asked(); len(got) != 1 || got[0] != "ExitPlanMode" {
			t.Fatalf("asked %v", got)
		}
		input, _ := r.all("can_use_tool")[0]["input"].(map[string]any)
		if input["plan"] != thePlan {
			t.Errorf("ExitPlanMode question %v", input)
		}
		if data, err := os.ReadFile(fmt.Sprint(input["planFilePath"])); err != nil || string(data) != thePlan {
			t.Errorf("plan file %q %v", data, err)
		}
		if w.read("hello.txt") != "hello\n" {
			t.Error("not implemented after approval")
		}
		w.allUsed()
	})
}

// The SDK's settings option reaches ponder as --settings, which counts as
// the host's user's own settings: an allow rule widens (the host, which
// refuses everything, is not asked), a deny rule narrows (the host, which
// allows everything, is not asked either).
func TestAgentSDKSettingsOption(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		w.srv.Add(calls("touch it", bashCall("touch widened"))...)
		r := runSDK(t, w, "settings", "PROMPT=touch it", "SETTINGS=")
		if w.exists("widened") || len(r.all("can_use_tool")) != 1 {
			t.Fatalf("control: without settings the host, which refuses, must be asked and the command must not run (%d questions)", len(r.all("can_use_tool")))
		}
		w.srv.Add(calls("touch it", bashCall("touch widened"))...)
		r = runSDK(t, w, "settings", "PROMPT=touch it", `SETTINGS={"permissions":{"allow":["Bash(touch:*)"]}}`)
		if !w.exists("widened") || len(r.all("can_use_tool")) != 0 {
			t.Errorf("an allow rule from the settings option did not widen (%d questions)", len(r.all("can_use_tool")))
		}
		w.srv.Add(calls("write it", writeCall("narrowed.txt", "x"))...)
		r = runSDK(t, w, "settings", "PROMPT=write it", "HOST_ALLOWS=1", `SETTINGS={"permissions":{"deny":["Write"]}}`)
		if w.exists("narrowed.txt") || len(r.all("can_use_tool")) != 0 {
			t.Errorf("a deny rule from the settings option did not narrow (%d questions)", len(r.all("can_use_tool")))
		}
	})
}
