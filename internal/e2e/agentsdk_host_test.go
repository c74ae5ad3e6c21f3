package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// sdkControl sends a control request in the Claude Agent SDK's shape and
// returns the response envelope ponder answers it with.
func sdkControl(s *session, id string, req map[string]any) map[string]any {
	s.t.Helper()
	s.send(map[string]any{"type": "control_request", "request_id": id, "request": req})
	line := s.next("the answer to "+id, func(m map[string]any) bool {
		if m["type"] != "control_response" {
			return false
		}
		r, _ := m["response"].(map[string]any)
		return r["request_id"] == id
	})
	r, _ := line["response"].(map[string]any)
	return r
}

// sdkAnswer answers a question in the SDK's envelope.
func sdkAnswer(s *session, req map[string]any, payload map[string]any) {
	s.send(map[string]any{"type": "control_response", "response": map[string]any{"subtype": "success", "request_id": req["request_id"], "response": payload}})
}

// A host of the SDK's dialect is trusted to answer, not to lower the
// guard: it cannot switch to bypassPermissions without the command line's
// leave, neither by a control request nor inside an approval, and a plan
// approval that asks for a mode it may not have leaves plan mode on.
func TestAgentSDKHostCannotLowerTheGuard(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		replies := append(planReplies(),
			fakemodel.Reply{Name: "sneak", When: fakemodel.Match{ToolResult: "Plan mode"}, ToolCalls: []fakemodel.ToolCall{
				{Name: "Write", Input: map[string]any{"file_path": "hello.txt", "content": "hello\n"}}}},
			fakemodel.Reply{Name: "stop", When: fakemodel.Match{ToolResult: "hello.txt"}, Text: "stopped"})
		w := newWorld(t, api, replies...)
		w.write("README.md", "A tiny project\n")
		s := w.start("--verbose", "--permission-prompt-tool", "stdio", "--permission-mode", "plan")
		if r := sdkControl(s, "init1", map[string]any{"subtype": "initialize", "hooks": map[string]any{}}); r["subtype"] != "success" {
			t.Fatalf("initialize: %v", r)
		}
		r := sdkControl(s, "mode1", map[string]any{"subtype": "set_permission_mode", "mode": "bypassPermissions"})
		if r["subtype"] != "error" || !strings.Contains(fmt.Sprint(r["error"]), "dangerously-skip-permissions") {
			t.Errorf("set_permission_mode bypassPermissions: %v", r)
		}
		s.say("add a greeting")
		q := s.control("can_use_tool")
		req, _ := q["request"].(map[string]any)
		if req["tool_name"] != "ExitPlanMode" {
			t.Fatalf("first question %v", req)
		}
		// Approve, asking for bypass, and also for the plan file to be
		// somewhere else: neither may happen.
		sdkAnswer(s, q, map[string]any{"behavior": "allow", "updatedInput": map[string]any{"plan": "# Evil\n", "planFilePath": w.dir + "/evil.md"},
			"updatedPermissions": []any{map[string]any{"type": "setMode", "mode": "bypassPermissions", "destination": "session"}}})
		res := s.result()
		if res["permission_mode"] != "plan" {
			t.Errorf("mode after an approval asking for bypass: %v", res["permission_mode"])
		}
		if w.read("hello.txt") != "<missing>" || w.read("evil.md") != "<missing>" {
			t.Error("a file changed")
		}
		if s.close() != 0 {
			t.Errorf("exit status after the host closed its input: %s", s.stderr.String())
		}
	})
}

// Both shapes of control_response are read; an error from the host
// withdraws the question, which counts as no.
func TestAgentSDKErrorAnswerRefuses(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, calls("create it", fakemodel.ToolCall{Name: "Write", Input: map[string]any{"file_path": "new.txt", "content": "x"}})...)
		s := w.start("--verbose")
		sdkControl(s, "i", map[string]any{"subtype": "initialize"})
		s.say("create it")
		q := s.control("can_use_tool")
		s.send(map[string]any{"type": "control_response", "response": map[string]any{"subtype": "error", "request_id": q["request_id"], "error": "canUseTool callback is not provided."}})
		res := s.result()
		if w.read("new.txt") != "<missing>" {
			t.Error("the write happened without a yes")
		}
		if d, _ := res["permission_denials"].([]any); len(d) != 1 {
			t.Errorf("permission_denials %v", res["permission_denials"])
		}
		s.close()
	})
}

// --tools names the only tools a session has: no other is offered, and a
// call of one anyway is refused and does not run.
func TestToolsFlagLimitsTheToolSet(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, calls("go", fakemodel.ToolCall{Name: "Bash", Input: map[string]any{"command": "touch ran.txt"}})...)
		o := w.mustRun(0, "", "-p", "go", "--output-format", "stream-json", "--permission-mode", "bypassPermissions", "--tools", "Read,Grep")
		if got := w.srv.Requests()[0].Tools; fmt.Sprint(got) != "[Grep Read]" && fmt.Sprint(got) != "[Read Grep]" {
			t.Errorf("offered %v, want Read and Grep only", got)
		}
		if w.read("ran.txt") != "<missing>" || !strings.Contains(o.stdout, `"tool_refused"`) {
			t.Error("a tool outside --tools ran")
		}
	})
}
