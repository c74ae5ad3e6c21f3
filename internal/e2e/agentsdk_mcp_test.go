package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// These tests drive ponder with the real Claude Agent SDK whose host
// serves an MCP server in its own process (testdata/sdk/mcphost.mjs:
// createSdkMcpServer with one tool, add, that claims to be read-only and
// records each call that reaches it). ponder talks MCP to it through
// mcp_message control requests; the evidence is the host's call log, the
// fake model's request log and what the SDK hands its host.

// hostMCP is one run of the host's driver.
type hostMCP struct {
	sdkRun
	calls string
}

// runHostMCP runs the driver with the prompt that makes the model add two
// and three, in mode, with env added.
func runHostMCP(t *testing.T, w *world, mode string, env ...string) hostMCP {
	t.Helper()
	calls := filepath.Join(t.TempDir(), "calls.jsonl")
	env = append(env, "CALL_LOG="+calls, "PROMPT=add two and three", "PERMISSION_MODE="+mode)
	return hostMCP{sdkRun: runSDKDriver(t, w, "mcphost.mjs", env...), calls: calls}
}

// reached lists the calls of the host's tool, as it recorded them.
func (h hostMCP) reached(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(h.calls)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range lines(t, string(data)) {
		if l["a"] == nil {
			out = append(out, fmt.Sprint(l["tool"]))
			continue
		}
		out = append(out, fmt.Sprintf("%v %v+%v", l["tool"], l["a"], l["b"]))
	}
	return out
}

// status is the calc server's entry in mcpServerStatus.
func (h hostMCP) status(t *testing.T) map[string]any {
	t.Helper()
	for _, c := range h.all("call") {
		if c["name"] != "mcpServerStatus" {
			continue
		}
		list, _ := c["value"].([]any)
		for _, s := range list {
			if m, _ := s.(map[string]any); m["name"] == "calc" {
				return m
			}
		}
		t.Fatalf("mcpServerStatus has no calc: %v", c["value"])
	}
	t.Fatalf("mcpServerStatus was never asked; stderr:\n%s", h.stderr)
	return nil
}

// addScript is the model's side: call the host's tool, then finish.
func addScript() []fakemodel.Reply {
	return []fakemodel.Reply{
		{Name: "call add", When: fakemodel.Match{LastUser: "add two and three"}, ToolCalls: []fakemodel.ToolCall{{Name: "mcp__calc__add", Input: map[string]any{"a": 2, "b": 3}}}},
		{Name: "done", When: fakemodel.Match{AnyMessage: "mcp__calc__add"}, Text: "Finished adding."},
	}
}

// The model calls the host's tool: the call crosses to the host, its
// result reaches the model's next request, the host was asked first (its
// read-only claim counts for nothing), and mcp_status shows the server
// connected with its tool.
func TestAgentSDKHostMCPTool(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, addScript()...)
		r := runHostMCP(t, w, "default")
		checkHostMCPTool(t, w, r)
	})
}

// A host that turns every built-in tool off (the SDK's tools: []) keeps
// its own server's tools: the option names built-in tools only.
func TestAgentSDKHostMCPWithoutBuiltins(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, addScript()...)
		r := runHostMCP(t, w, "default", "NO_BUILTINS=1")
		if reqs := w.srv.Requests(); len(reqs) > 0 {
			for _, name := range reqs[0].Tools {
				if !strings.HasPrefix(name, "mcp__calc__") {
					t.Errorf("offered %s though the host turned the built-in tools off", name)
				}
			}
		}
		checkHostMCPTool(t, w, r)
	})
}

// checkHostMCPTool checks a run in which the host's tool add ran once.
func checkHostMCPTool(t *testing.T, w *world, r hostMCP) {
	t.Helper()
	r.checkTypes()
	if got := r.reached(t); !slices.Equal(got, []string{"add 2+3"}) {
		t.Errorf("calls that reached the host's tool: %v", got)
	}
	reqs := w.srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request reached the model")
	}
	if !slices.Contains(reqs[0].Tools, "mcp__calc__add") {
		t.Fatalf("the host's tool was not offered: %v", reqs[0].Tools)
	}
	if res := resultOf(t, w, "mcp__calc__add"); failed(res) || !strings.Contains(res.Content, "the sum is 5") {
		t.Errorf("the tool's result in the model's next request: %+v", res)
	}
	if got := r.asked(); !slices.Equal(got, []string{"mcp__calc__add"}) {
		t.Errorf("canUseTool was asked about %v; an MCP tool nobody marked read-only asks", got)
	}
	st := r.status(t)
	tools, _ := st["tools"].([]any)
	var add map[string]any
	for _, tl := range tools {
		if m, _ := tl.(map[string]any); m["name"] == "add" {
			add = m
		}
	}
	// The server's claim is shown; ponder's own mark says it does
	// not count.
	claims, _ := add["annotations"].(map[string]any)
	own, _ := add["ponder"].(map[string]any)
	if st["status"] != "connected" || st["source"] != "sdk" || claims["readOnly"] != true || own["readOnly"] != false {
		t.Errorf("mcpServerStatus of calc: %v", st)
	}
	if res := r.result(); res["subtype"] != "success" || res["result"] != "Finished adding." {
		t.Errorf("result %v", res)
	}
	w.allUsed()
}

// In plan mode the host's tool is neither offered nor run: the call is
// refused before it reaches the host, whatever its read-only claim and
// whatever canUseTool would say. Once the user's own settings call it
// read-only, it runs unasked; a repository's settings saying so count for
// nothing until the folder is trusted.
func TestAgentSDKHostMCPPlanMode(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		for _, who := range []string{"nobody", "user", "repository"} {
			t.Run("vouched by "+who, func(t *testing.T) {
				w := newWorld(t, api, addScript()...)
				vouch := `{"mcpServers": {"calc": {"type": "sdk", "tools": {"add": "readOnly"}}}}`
				switch who {
				case "user":
					w.userSettings(vouch)
				case "repository":
					w.write(".ponder/settings.json", vouch)
				}
				vouched := who == "user"
				r := runHostMCP(t, w, "plan")
				reqs := w.srv.Requests()
				if len(reqs) == 0 {
					t.Fatal("no request reached the model")
				}
				offered := slices.Contains(reqs[0].Tools, "mcp__calc__add")
				res := resultOf(t, w, "mcp__calc__add")
				if vouched {
					if !offered || failed(res) || !strings.Contains(res.Content, "the sum is 5") {
						t.Errorf("the tool the user calls read-only: offered %v, result %+v", offered, res)
					}
					if got := r.reached(t); !slices.Equal(got, []string{"add 2+3"}) {
						t.Errorf("calls that reached the host's tool: %v", got)
					}
				} else {
					if offered || !failed(res) || !strings.Contains(res.Content, "not marked read-only") {
						t.Errorf("the unvouched tool in plan mode: offered %v, result %+v", offered, res)
					}
					if got := r.reached(t); len(got) != 0 {
						t.Errorf("plan mode let the call reach the host: %v", got)
					}
				}
				if got := r.asked(); len(got) != 0 {
					t.Errorf("canUseTool was asked about %v", got)
				}
				if st := r.status(t); st["status"] != "connected" {
					t.Errorf("mcpServerStatus of calc: %v", st)
				}
				w.allUsed()
			})
		}
	})
}

// A deny rule naming the host's tool keeps it from the model and refuses
// the call before it reaches the host; so does the host's own
// always_deny policy for the tool.
func TestAgentSDKHostMCPDenyRule(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		for _, how := range []string{"DISALLOWED=mcp__calc__add", "ADD_POLICY=always_deny"} {
			t.Run(strings.Split(how, "=")[0], func(t *testing.T) { hostMCPDenied(t, api, how) })
		}
	})
}

// hostMCPDenied runs the host with env denying its tool add.
func hostMCPDenied(t *testing.T, api, env string) {
	w := newWorld(t, api, addScript()...)
	r := runHostMCP(t, w, "default", env)
	if reqs := w.srv.Requests(); len(reqs) == 0 || slices.Contains(reqs[0].Tools, "mcp__calc__add") {
		t.Error("a denied tool was offered")
	}
	if res := resultOf(t, w, "mcp__calc__add"); !failed(res) {
		t.Errorf("the denied call: %+v", res)
	}
	if got := r.reached(t); len(got) != 0 {
		t.Errorf("a denied call reached the host: %v", got)
	}
	if got := r.asked(); len(got) != 0 {
		t.Errorf("canUseTool was asked about %v", got)
	}
	w.allUsed()
}

// A host whose tool never answers holds nothing up for ever: the tool
// timeout ends the call with an error the model reads, and an interrupt
// ends the turn at once.
func TestAgentSDKHostMCPNeverAnswers(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		for _, how := range []string{"timeout", "interrupt"} {
			t.Run(how, func(t *testing.T) {
				replies := []fakemodel.Reply{{Name: "call wait", When: fakemodel.Match{LastUser: "add two and three"}, ToolCalls: []fakemodel.ToolCall{{Name: "mcp__calc__wait", Input: map[string]any{}}}}}
				env := []string{"PONDER_MCP_TOOL_TIMEOUT=800"}
				if how == "interrupt" {
					env = []string{"ON_WAIT=interrupt"}
				} else {
					replies = append(replies, fakemodel.Reply{Name: "done", When: fakemodel.Match{AnyMessage: "mcp__calc__wait"}, Text: "Gave up waiting."})
				}
				w := newWorld(t, api, replies...)
				start := time.Now()
				r := runHostMCP(t, w, "default", env...)
				if took := time.Since(start); took > 30*time.Second {
					t.Errorf("the run took %s", took)
				}
				if got := r.reached(t); !slices.Equal(got, []string{"wait"}) {
					t.Errorf("calls that reached the host's tool: %v", got)
				}
				res := r.result()
				if how == "timeout" {
					if got := resultOf(t, w, "mcp__calc__wait"); !failed(got) || !strings.Contains(got.Content, "did not answer within") {
						t.Errorf("the model read %+v", got)
					}
					if res["subtype"] != "success" {
						t.Errorf("result %v", res)
					}
				} else if res["is_error"] != true || !strings.Contains(fmt.Sprint(res["errors"]), "interrupted") {
					t.Errorf("result after the interrupt %v", res)
				}
				w.allUsed()
			})
		}
	})
}
