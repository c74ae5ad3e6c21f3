package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// demoMCP is a copy of the TypeScript SDK server of testdata/mcp, with
// the files it leaves as evidence.
type demoMCP struct {
	script string
	// stamp is the file its writing tools write; calls the log of every
	// call that reached it.
	stamp, calls string
}

// newDemoMCP copies the server next to a link to the installed clients
// (ESM imports resolve from the script's own directory).
func newDemoMCP(t *testing.T) *demoMCP {
	t.Helper()
	modules := nodeModules(t, "@modelcontextprotocol/sdk")
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "mcp", "server.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "demo-mcp-server.mjs")
	if err := os.WriteFile(script, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return &demoMCP{script: script, stamp: filepath.Join(dir, "stamp.txt"), calls: filepath.Join(dir, "calls.jsonl")}
}

// server is one server definition running the script in mode.
func (d *demoMCP) server(mode string) map[string]any {
	// The user vouches for the tools that only read; "liar" claims to
	// read but writes, and nobody vouched for it.
	return map[string]any{"command": "node", "args": []string{d.script, mode},
		"env":   map[string]string{"STAMP_FILE": d.stamp, "CALL_LOG": d.calls},
		"tools": map[string]string{"lookup": "readOnly", "fail": "readOnly", "env": "readOnly", "slow": "readOnly", "die": "readOnly"}}
}

// config is a --mcp-config value naming servers.
func mcpConfig(servers map[string]any) string {
	data, _ := json.Marshal(map[string]any{"mcpServers": servers})
	return string(data)
}

// called lists the tools that reached the server, in order.
func (d *demoMCP) called(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(d.calls)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range lines(t, string(data)) {
		out = append(out, fmt.Sprint(l["tool"]))
	}
	return out
}

func (d *demoMCP) stamped() string {
	data, err := os.ReadFile(d.stamp)
	if err != nil {
		return "<missing>"
	}
	return string(data)
}

// mcpCalls is a reply that calls the given demo tools at once.
func mcpCalls(name string, when fakemodel.Match, tools ...string) fakemodel.Reply {
	r := fakemodel.Reply{Name: name, When: when}
	for _, tl := range tools {
		input := map[string]any{"text": "from " + tl}
		if tl == "lookup" {
			input = map[string]any{"word": "ponder"}
		}
		if tl == "fail" {
			input = map[string]any{}
		}
		r.ToolCalls = append(r.ToolCalls, fakemodel.ToolCall{Name: "mcp__demo__" + tl, Input: input})
	}
	return r
}

var mcpDone = fakemodel.Reply{Name: "done", When: fakemodel.Match{ToolResult: "ponder"}, Text: "Finished with the demo tools."}

// resultOf finds the result of the call of tool in the request that
// answered the calls.
func resultOf(t *testing.T, w *world, tool string) fakemodel.ToolResult {
	t.Helper()
	for _, r := range w.srv.Requests() {
		var ids []string
		for _, m := range r.Messages {
			for _, tu := range m.ToolUses {
				if tu.Name == tool {
					ids = append(ids, tu.ID)
				}
			}
		}
		for _, res := range toolResults(r) {
			if slices.Contains(ids, res.ToolUseID) {
				return res
			}
		}
	}
	t.Fatalf("no result of %s in the request log", tool)
	return fakemodel.ToolResult{}
}

// In acceptEdits the read-only tool runs unasked and the writer runs once
// a rule allows it; without the rule nobody can say yes, so it is refused
// and never reaches the server.
func TestMCPToolsOutsidePlanMode(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		for _, allowed := range []bool{true, false} {
			t.Run(fmt.Sprintf("allowed=%v", allowed), func(t *testing.T) {
				d := newDemoMCP(t)
				w := newWorld(t, api, mcpCalls("call both", fakemodel.Match{LastUser: "use the demo"}, "lookup", "stamp"), mcpDone)
				args := []string{"-p", "use the demo", "--permission-mode", "acceptEdits", "--mcp-config", mcpConfig(map[string]any{"demo": d.server("serve")})}
				if allowed {
					args = append(args, "--allowedTools", "mcp__demo__stamp")
				}
				w.mustRun(0, "", args...)
				first := w.srv.Requests()[0]
				for _, name := range []string{"mcp__demo__lookup", "mcp__demo__stamp", "mcp__demo__fail"} {
					if !slices.Contains(first.Tools, name) {
						t.Errorf("%s not offered in acceptEdits: %v", name, first.Tools)
					}
				}
				if got := resultOf(t, w, "mcp__demo__lookup"); failed(got) || !strings.Contains(got.Content, "definition of ponder") {
					t.Errorf("lookup result: %+v", got)
				}
				stamp := resultOf(t, w, "mcp__demo__stamp")
				if allowed {
					if d.stamped() != "from stamp" || failed(stamp) {
						t.Errorf("the allowed writer did not run: stamp %q, result %+v", d.stamped(), stamp)
					}
					if got := d.called(t); !slices.Equal(got, []string{"lookup", "stamp"}) && !slices.Equal(got, []string{"stamp", "lookup"}) {
						t.Errorf("calls that reached the server: %v", got)
					}
				} else {
					if d.stamped() != "<missing>" || !failed(stamp) {
						t.Errorf("a writer nobody allowed ran: stamp %q, result %+v", d.stamped(), stamp)
					}
					if got := d.called(t); !slices.Equal(got, []string{"lookup"}) {
						t.Errorf("calls that reached the server: %v, want only lookup", got)
					}
				}
				w.allUsed()
			})
		}
	})
}

// In plan mode only the tool the user's settings call read-only is
// offered and runs; the writer is neither offered nor run, whatever an
// allow rule says, and a server's read-only claim nobody vouched for
// (the liar, which writes) counts for nothing.
func TestMCPPlanModeOffersOnlyReadOnlyTools(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		d := newDemoMCP(t)
		w := newWorld(t, api, mcpCalls("call all", fakemodel.Match{LastUser: "use the demo"}, "lookup", "stamp", "liar"), mcpDone)
		srv := d.server("serve")
		w.mustRun(0, "", "-p", "use the demo", "--permission-mode", "plan", "--allowedTools", "mcp__demo__stamp,mcp__demo__liar",
			"--mcp-config", mcpConfig(map[string]any{"demo": srv}))
		first := w.srv.Requests()[0]
		if !slices.Contains(first.Tools, "mcp__demo__lookup") {
			t.Errorf("the read-only tool is not offered in plan mode: %v", first.Tools)
		}
		for _, name := range []string{"mcp__demo__stamp", "mcp__demo__liar"} {
			if slices.Contains(first.Tools, name) {
				t.Errorf("%s is offered in plan mode: %v", name, first.Tools)
			}
			if res := resultOf(t, w, name); !failed(res) || !strings.Contains(res.Content, "Plan mode") || !strings.Contains(res.Content, "not marked read-only") {
				t.Errorf("%s in plan mode: %+v, want a refusal saying why", name, res)
			}
		}
		if got := d.called(t); !slices.Equal(got, []string{"lookup"}) {
			t.Errorf("calls that reached the server: %v, want only lookup", got)
		}
		if d.stamped() != "<missing>" {
			t.Errorf("plan mode let an MCP tool write: %q", d.stamped())
		}
		w.allUsed()
	})
}

// A server that crashes at start and one that never answers are reported
// (with why) and skipped; the session runs with the good one, the hung
// server is stopped at its start-up timeout, and no server outlives
// ponder. A tool's error result reaches the model as an error.
func TestMCPFailingServers(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		d := newDemoMCP(t)
		w := newWorld(t, api, mcpCalls("call fail", fakemodel.Match{LastUser: "use the demo"}, "fail", "lookup"), mcpDone)
		stuck := d.server("hang")
		stuck["timeout"] = 1.5
		start := time.Now()
		o := w.mustRun(0, "", "-p", "use the demo", "--output-format", "stream-json",
			"--mcp-config", mcpConfig(map[string]any{"demo": d.server("serve"), "broken": d.server("crash"), "stuck": stuck}))
		if took := time.Since(start); took > 20*time.Second {
			t.Errorf("the run took %s; a hung server must not hold it up", took)
		}
		init := lines(t, o.stdout)[0]
		status := map[string]string{}
		errs := map[string]string{}
		for _, s := range init["mcp_servers"].([]any) {
			m := s.(map[string]any)
			status[fmt.Sprint(m["name"])] = fmt.Sprint(m["status"])
			errs[fmt.Sprint(m["name"])] = fmt.Sprint(m["error"])
		}
		if status["demo"] != "connected" || status["broken"] != "failed" || status["stuck"] != "failed" {
			t.Errorf("mcp_servers in init: %v", init["mcp_servers"])
		}
		if !strings.Contains(errs["broken"], "cannot open its database") {
			t.Errorf("the crashed server's failure does not say what it wrote: %q", errs["broken"])
		}
		if !strings.Contains(errs["stuck"], "start-up timeout") {
			t.Errorf("the hung server's failure does not name the timeout: %q", errs["stuck"])
		}
		warned := false
		for _, l := range lines(t, o.stdout) {
			warned = warned || l["event"] == "notice" && strings.Contains(fmt.Sprint(l["text"]), "MCP server broken")
		}
		if !warned {
			t.Errorf("no notice about the failed server:\n%s", o.stdout)
		}
		res := resultOf(t, w, "mcp__demo__fail")
		if !failed(res) || !strings.Contains(res.Content, "the demo database is locked") {
			t.Errorf("the tool's error did not reach the model as an error: %+v", res)
		}
		if left := markerProcesses(d.script); len(left) > 0 {
			t.Errorf("MCP servers outlived ponder: %v", left)
		}
		w.allUsed()
	})
}

// A repository's .mcp.json starts nothing until the folder is trusted,
// and the notice says what was ignored; trusted, its servers start.
func TestMCPProjectFileNeedsTrust(t *testing.T) {
	d := newDemoMCP(t)
	for _, trusted := range []bool{false, true} {
		t.Run(fmt.Sprintf("trusted=%v", trusted), func(t *testing.T) {
			w := newWorld(t, "anthropic", fakemodel.Reply{Text: "ok"})
			data, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"demo": d.server("serve")}})
			w.write(".mcp.json", string(data))
			args := []string{"-p", "hello"}
			if trusted {
				args = append(args, "--trust")
			}
			o := w.mustRun(0, "", args...)
			offered := slices.Contains(w.srv.Requests()[0].Tools, "mcp__demo__lookup")
			if offered != trusted {
				t.Errorf("trusted=%v but the project's MCP tool offered=%v", trusted, offered)
			}
			if !trusted && !strings.Contains(o.stderr, "mcpServers") {
				t.Errorf("the trust notice does not mention the ignored servers:\n%s", o.stderr)
			}
		})
	}
}

// A deny rule naming the server keeps all its tools from the model.
func TestMCPDenyRuleCoversServer(t *testing.T) {
	d := newDemoMCP(t)
	w := newWorld(t, "openai", mcpCalls("call lookup", fakemodel.Match{}, "lookup"), fakemodel.Reply{Name: "end", When: fakemodel.Match{ToolResult: "Denied by the permission rule mcp__demo__*"}, Text: "ok"})
	w.mustRun(0, "", "-p", "use the demo", "--disallowedTools", "mcp__demo__*", "--mcp-config", mcpConfig(map[string]any{"demo": d.server("serve")}))
	for _, name := range w.srv.Requests()[0].Tools {
		if strings.HasPrefix(name, "mcp__demo__") {
			t.Errorf("%s offered under a deny rule for the server", name)
		}
	}
	if got := d.called(t); len(got) > 0 {
		t.Errorf("denied tools reached the server: %v", got)
	}
}

// ponder mcp list shows each server's state and which tools plan mode may
// use.
func TestMCPList(t *testing.T) {
	d := newDemoMCP(t)
	w := newWorld(t, "anthropic")
	srv := d.server("serve")
	srv["tools"].(map[string]string)["fail"] = "deny"
	o := w.mustRun(0, "", "mcp", "list", "--mcp-config", mcpConfig(map[string]any{"demo": srv, "broken": d.server("crash")}))
	for _, want := range []string{
		"demo: connected", "broken: failed", "cannot open its database",
		"mcp__demo__lookup", "read-only", "mcp__demo__stamp", "asks",
		"denied in the settings",
	} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("mcp list lacks %q:\n%s", want, o.stdout)
		}
	}
	o = w.mustRun(0, "", "mcp", "list", "--json", "--mcp-config", mcpConfig(map[string]any{"demo": srv}))
	var servers []map[string]any
	if err := json.Unmarshal([]byte(o.stdout), &servers); err != nil || len(servers) != 1 || servers[0]["status"] != "connected" {
		t.Errorf("mcp list --json: %v\n%s", err, o.stdout)
	}
	if left := markerProcesses(d.script); len(left) > 0 {
		t.Errorf("mcp list left servers running: %v", left)
	}
	o = w.mustRun(0, "", "mcp", "list", "--mcp-config", `{"mcpServers": {"a__b": {"command": "x"}, "old": {"type": "sse", "url": "http://127.0.0.1:1"}}}`)
	if !strings.Contains(o.stdout, "a__b: failed") || !strings.Contains(o.stdout, "sse transport is not supported") {
		t.Errorf("servers that cannot work as written are not reported as failed:\n%s", o.stdout)
	}
	o = w.mustRun(2, "", "-p", "hi", "--mcp-config", `{"mcpServers": `)
	if !strings.Contains(o.stderr, "--mcp-config") {
		t.Errorf("a broken --mcp-config is not named:\n%s", o.stderr)
	}
}

// A user's agent whose tools only read, MCP tools marked read-only
// included, is a read-only agent that plan mode may launch, and its
// read-only MCP tool runs; an agent with a writing MCP tool is not, and
// plan mode refuses to launch it.
func TestMCPToolsOfReadOnlyAgents(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		d := newDemoMCP(t)
		w := newWorld(t, api,
			fakemodel.Reply{Name: "launch", When: fakemodel.Match{LastUser: "delegate"}, ToolCalls: []fakemodel.ToolCall{
				taskCall("looker", "look it up"), taskCall("stamper", "stamp it"),
			}},
			agentReply("look it up", mcpCalls("agent looks up", fakemodel.Match{}, "lookup")),
			agentReply("stamp it", mcpCalls("agent stamps", fakemodel.Match{}, "stamp")),
			fakemodel.Reply{Name: "looker done", When: fakemodel.Match{FirstUser: "look it up", ToolResult: "definition of ponder"}, Text: "found it"},
			fakemodel.Reply{Name: "main done", When: fakemodel.Match{Func: func(r *fakemodel.Request) bool {
				return len(r.LastUser().ToolResults) == 2
			}}, Text: "delegated"},
		)
		agents := filepath.Join(w.cfg, "agents")
		if err := os.MkdirAll(agents, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(agents, "looker.md"), []byte("---\nname: looker\ndescription: Looks words up\ntools: Read, mcp__demo__lookup\n---\nLook things up.\n"), 0o644)
		os.WriteFile(filepath.Join(agents, "stamper.md"), []byte("---\nname: stamper\ndescription: Stamps\ntools: Read, mcp__demo__stamp\n---\nStamp things.\n"), 0o644)
		o := w.mustRun(0, "", "-p", "delegate", "--permission-mode", "plan", "--allowedTools", "mcp__demo",
			"--mcp-config", mcpConfig(map[string]any{"demo": d.server("serve")}))
		if got := d.called(t); !slices.Equal(got, []string{"lookup"}) {
			t.Errorf("calls that reached the server: %v, want only the read-only agent's lookup", got)
		}
		if d.stamped() != "<missing>" {
			t.Error("an agent stamped in plan mode")
		}
		if !strings.Contains(o.stderr, "stamper agent type can change files") {
			t.Errorf("launching the writing agent was not refused as such:\n%s", o.stderr)
		}
		if w.srv.Unused()[0] != "agent stamps" || len(w.srv.Unused()) != 1 {
			t.Errorf("unused replies: %v (only the writing agent's should be)", w.srv.Unused())
		}
	})
}

// A tool call that never answers is cancelled at the server's tool
// timeout, and a server that dies mid-session makes its tools fail with a
// reason instead of hanging the turn.
func TestMCPServerThatStallsOrDies(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		d := newDemoMCP(t)
		w := newWorld(t, api,
			mcpCalls("call slow", fakemodel.Match{LastUser: "use the demo"}, "slow"),
			mcpCalls("call die", fakemodel.Match{ToolResult: "tool timeout"}, "die"),
			mcpCalls("call lookup", fakemodel.Match{Func: func(r *fakemodel.Request) bool {
				return len(r.Messages) == 5
			}}, "lookup"),
			fakemodel.Reply{Name: "end", When: fakemodel.Match{ToolResult: "not running"}, Text: "The server is gone."},
		)
		srv := d.server("serve")
		srv["toolTimeout"] = 1
		start := time.Now()
		w.mustRun(0, "", "-p", "use the demo", "--mcp-config", mcpConfig(map[string]any{"demo": srv}))
		if took := time.Since(start); took > 30*time.Second {
			t.Errorf("the run took %s", took)
		}
		for _, name := range []string{"mcp__demo__slow", "mcp__demo__die", "mcp__demo__lookup"} {
			if res := resultOf(t, w, name); !failed(res) {
				t.Errorf("%s: %+v, want an error", name, res)
			}
		}
		if got := d.called(t); !slices.Equal(got, []string{"slow", "die"}) {
			t.Errorf("calls that reached the server: %v", got)
		}
		if left := markerProcesses(d.script); len(left) > 0 {
			t.Errorf("MCP servers outlived ponder: %v", left)
		}
		w.allUsed()
	})
}

// startHTTP runs the demo server over streamable HTTP and returns its URL;
// requests must carry "Bearer " + token.
func (d *demoMCP) startHTTP(t *testing.T, token string) string {
	t.Helper()
	portFile := filepath.Join(filepath.Dir(d.script), "port")
	cmd := exec.Command("node", d.script, "http")
	cmd.Env = append(os.Environ(), "PORT_FILE="+portFile, "DEMO_TOKEN="+token, "STAMP_FILE="+d.stamp, "CALL_LOG="+d.calls)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for range 1000 {
		if data, err := os.ReadFile(portFile); err == nil {
			return "http://127.0.0.1:" + string(data) + "/mcp"
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the HTTP MCP server did not start in 10s")
	return ""
}

// The same rules hold over streamable HTTP: the header's ${…} is expanded
// from ponder's environment, the read-only tool runs in plan mode and the
// writer is neither offered nor run.
func TestMCPOverStreamableHTTP(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		d := newDemoMCP(t)
		w := newWorld(t, api, mcpCalls("call both", fakemodel.Match{LastUser: "use the demo"}, "lookup", "stamp"), mcpDone)
		url := d.startHTTP(t, "s3cret-"+api)
		w.extraEnv = append(w.extraEnv, "DEMO_TOKEN=s3cret-"+api)
		w.mustRun(0, "", "-p", "use the demo", "--permission-mode", "plan", "--mcp-config", mcpConfig(map[string]any{
			"demo": map[string]any{"type": "http", "url": url, "headers": map[string]string{"Authorization": "Bearer ${DEMO_TOKEN}"},
				"tools": map[string]string{"lookup": "readOnly"}},
		}))
		first := w.srv.Requests()[0]
		if !slices.Contains(first.Tools, "mcp__demo__lookup") || slices.Contains(first.Tools, "mcp__demo__stamp") {
			t.Errorf("offered in plan mode over HTTP: %v", first.Tools)
		}
		if got := d.called(t); !slices.Equal(got, []string{"lookup"}) {
			t.Errorf("calls that reached the server: %v, want only lookup", got)
		}
		if d.stamped() != "<missing>" {
			t.Error("the writer ran in plan mode over HTTP")
		}
		w.allUsed()
	})
}

// In default mode a writing MCP tool asks the host as a command does, with
// the tool as the rule to remember; the host's yes lets it run, its no
// keeps it from the server.
func TestMCPWriterAsksTheHost(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		d := newDemoMCP(t)
		w := newWorld(t, api,
			mcpCalls("stamp once", fakemodel.Match{LastUser: "stamp it"}, "stamp"),
			fakemodel.Reply{Name: "after yes", When: fakemodel.Match{ToolResult: "stamped"}, Text: "stamped"},
			fakemodel.Reply{Name: "stamp twice", When: fakemodel.Match{LastUser: "again"}, ToolCalls: []fakemodel.ToolCall{{Name: "mcp__demo__stamp", Input: map[string]any{"text": "second"}}}},
			fakemodel.Reply{Name: "after no", When: fakemodel.Match{ToolResult: "not today"}, Text: "refused"},
		)
		s := w.start("--mcp-config", mcpConfig(map[string]any{"demo": d.server("serve")}))
		s.say("stamp it")
		req := s.control("can_use_tool")
		r := req["request"].(map[string]any)
		if r["tool_name"] != "mcp__demo__stamp" || r["suggested_rule"] != "mcp__demo__stamp" {
			t.Errorf("the question: %v", r)
		}
		if got := d.called(t); len(got) != 0 {
			t.Fatalf("the writer reached the server before the host answered: %v", got)
		}
		s.answer(req, map[string]any{"behavior": "allow"})
		s.result()
		if d.stamped() != "from stamp" {
			t.Errorf("after the host's yes, stamp = %q", d.stamped())
		}
		s.say("again")
		s.answer(s.control("can_use_tool"), map[string]any{"behavior": "deny", "message": "not today"})
		s.result()
		if d.stamped() != "from stamp" {
			t.Errorf("after the host's no, stamp = %q", d.stamped())
		}
		if code := s.close(); code != 0 {
			t.Errorf("exit %d", code)
		}
		w.allUsed()
	})
}

// An MCP server never gets ponder's own model credentials, so it cannot
// hand them to the model or anyone else; the variables its definition
// sets, it gets.
func TestMCPServerEnvironmentHoldsNoCredentials(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		d := newDemoMCP(t)
		w := newWorld(t, api,
			fakemodel.Reply{Name: "env", When: fakemodel.Match{LastUser: "show env"}, ToolCalls: []fakemodel.ToolCall{{Name: "mcp__demo__env", Input: map[string]any{}}}},
			fakemodel.Reply{Name: "end", When: fakemodel.Match{ToolResult: "CALL_LOG"}, Text: "ok"},
		)
		w.mustRun(0, "", "-p", "show env", "--mcp-config", mcpConfig(map[string]any{"demo": d.server("serve")}))
		res := resultOf(t, w, "mcp__demo__env")
		var env map[string]string
		if err := json.Unmarshal([]byte(res.Content), &env); err != nil {
			t.Fatalf("env result: %v\n%s", err, res.Content)
		}
		for k, v := range env {
			if strings.Contains(v, "fake-key") || k == "ANTHROPIC_API_KEY" || k == "OPENAI_API_KEY" {
				t.Errorf("the MCP server got ponder's credential %s", k)
			}
		}
		if env["STAMP_FILE"] != d.stamp {
			t.Errorf("the definition's env did not reach the server: %v", env["STAMP_FILE"])
		}
	})
}

// /mcp in the interface shows the servers and which tools plan mode may
// use; a failed server says why.
func TestMCPInTheInterface(t *testing.T) {
	d := newDemoMCP(t)
	w := newWorld(t, "anthropic")
	term := w.terminal("--mcp-config", mcpConfig(map[string]any{"demo": d.server("serve"), "broken": d.server("crash")}))
	term.waitFor("the status bar", func(s string) bool { return strings.Contains(statusLine(s), "default") })
	term.typeText("/mcp")
	term.send("Enter")
	s := term.waitText("mcp__demo__lookup")
	for _, want := range []string{"demo: connected", "read-only, plan mode too", "broken: failed"} {
		if !strings.Contains(s, want) {
			t.Errorf("/mcp lacks %q:\n%s", want, s)
		}
	}
}
