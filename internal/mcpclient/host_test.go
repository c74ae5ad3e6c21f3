package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/tool"
)

// fakeHost plays the Claude Agent SDK's side of the control channel: each
// message ponder sends is handed to a real MCP server (the go-sdk's, over
// an in-memory pipe), a request's response is the answer to the message
// that carried it, and what the server sends on its own is delivered to
// the manager, as the SDK does with its control requests. tamper lets a
// test change or withhold an answer.
type fakeHost struct {
	t    testing.TB
	conn mcp.Connection

	mu      sync.Mutex
	m       *Manager
	pending map[string]func(json.RawMessage, error)
	methods map[string]string
	sent    []string
	// tamper, when set, sees each response before it is answered: it
	// returns what to answer instead, an error to fail with, or
	// silent to never answer.
	tamper func(method string, resp json.RawMessage) (answer json.RawMessage, err error, silent bool)
	// withdrawn receives the method of each request whose caller gave
	// up before the host answered; held, of each request it holds.
	withdrawn chan string
	held      chan string
}

func newFakeHost(t testing.TB, srv *mcp.Server) *fakeHost {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	conn, err := ct.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	h := &fakeHost{t: t, conn: conn, pending: map[string]func(json.RawMessage, error){}, methods: map[string]string{}, withdrawn: make(chan string, 16), held: make(chan string, 64)}
	go h.readServer()
	return h
}

// send is the HostFunc.
func (h *fakeHost) send(ctx context.Context, server string, message json.RawMessage, done func(json.RawMessage, error)) error {
	msg, err := jsonrpc.DecodeMessage(message)
	if err != nil {
		h.t.Errorf("ponder sent a message that is not JSON-RPC: %s", message)
		return err
	}
	req, ok := msg.(*jsonrpc.Request)
	h.mu.Lock()
	if ok {
		h.sent = append(h.sent, req.Method)
	}
	h.mu.Unlock()
	if !ok || !req.IsCall() {
		_ = h.conn.Write(context.Background(), msg)
		go done(json.RawMessage(`{"jsonrpc":"2.0","result":{},"id":0}`), nil)
		return nil
	}
	key := fmt.Sprint(req.ID.Raw())
	h.mu.Lock()
	h.pending[key] = done
	h.methods[key] = req.Method
	h.mu.Unlock()
	select {
	case h.held <- req.Method:
	default:
	}
	context.AfterFunc(ctx, func() {
		if d := h.take(key); d != nil {
			h.withdrawn <- req.Method
			d(nil, ctx.Err())
		}
	})
	return h.conn.Write(context.Background(), msg)
}

// take removes and returns the waiting answer of a request, or nil.
func (h *fakeHost) take(key string) func(json.RawMessage, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	d := h.pending[key]
	delete(h.pending, key)
	return d
}

// readServer answers requests with the server's responses and delivers
// what the server sends on its own.
func (h *fakeHost) readServer() {
	for {
		msg, err := h.conn.Read(context.Background())
		if err != nil {
			return
		}
		data, _ := jsonrpc.EncodeMessage(msg)
		resp, ok := msg.(*jsonrpc.Response)
		if !ok {
			h.mu.Lock()
			m := h.m
			h.mu.Unlock()
			if m != nil {
				_ = m.Deliver("calc", data)
			}
			continue
		}
		key := fmt.Sprint(resp.ID.Raw())
		h.mu.Lock()
		method, tamper := h.methods[key], h.tamper
		h.mu.Unlock()
		answer, aerr, silent := json.RawMessage(data), error(nil), false
		if tamper != nil {
			answer, aerr, silent = tamper(method, data)
		}
		if silent {
			continue
		}
		if d := h.take(key); d != nil {
			d(answer, aerr)
		}
	}
}

// calcServer is the host's server: add, a tool that claims to be
// read-only; slow, a tool that never finishes on its own.
func calcServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "calc", Version: "1"}, nil)
	schema := map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "number"}, "b": map[string]any{"type": "number"}}}
	srv.AddTool(&mcp.Tool{Name: "add", InputSchema: schema, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct{ A, B float64 }
		_ = json.Unmarshal(req.Params.Arguments, &in)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(in.A + in.B)}}}, nil
	})
	srv.AddTool(&mcp.Tool{Name: "slow", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	return srv
}

// startHosted starts a manager with the host's server calc defined in
// the settings as def, attaches h and waits for the server.
func startHosted(t *testing.T, h *fakeHost, def config.MCPServer, o Options) *Manager {
	t.Helper()
	def.Type = "sdk"
	o.Hosted = true
	if o.Timeout == 0 {
		o.Timeout = 10 * time.Second
	}
	m := Start(context.Background(), []config.MCPSource{{Name: "calc", From: "settings.json", Server: def}}, o)
	t.Cleanup(m.Close)
	if st := m.Status()[0]; st.State != StatePending {
		t.Fatalf("before the host is attached: %s %q", st.State, st.Error)
	}
	h.mu.Lock()
	h.m = m
	h.mu.Unlock()
	m.AttachHost(h.send)
	if err := m.Ready(context.Background()); err != nil {
		t.Fatal(err)
	}
	return m
}

// run calls a tool of the manager by name.
func run(t *testing.T, ctx context.Context, m *Manager, name, input string) tool.Result {
	t.Helper()
	for _, tl := range m.Tools() {
		if tl.Name() == name {
			call, err := tl.Prepare(&tool.Env{}, json.RawMessage(input))
			if err != nil {
				t.Fatal(err)
			}
			return call.Run(ctx)
		}
	}
	t.Fatalf("no tool %s among %v", name, m.Tools())
	return tool.Result{}
}

func TestHostedServerToolsRunThroughTheHost(t *testing.T) {
	h := newFakeHost(t, calcServer())
	m := startHosted(t, h, config.MCPServer{}, Options{})
	st := m.Status()[0]
	if st.State != StateConnected || st.Transport != "sdk" {
		t.Fatalf("state %s (%s): %s", st.State, st.Transport, st.Error)
	}
	for _, ti := range st.Tools {
		if ti.Remote == "add" && (ti.ReadOnly || !ti.Annotated) {
			t.Errorf("add: %+v; the server's readOnlyHint is shown, never trusted", ti)
		}
	}
	res := run(t, context.Background(), m, "mcp__calc__add", `{"a": 2, "b": 3}`)
	if res.IsError || res.Content != "5" {
		t.Errorf("result %+v", res)
	}
	h.mu.Lock()
	sent := strings.Join(h.sent, ",")
	h.mu.Unlock()
	if !strings.HasPrefix(sent, "initialize,notifications/initialized,tools/list") || !strings.Contains(sent, "tools/call") {
		t.Errorf("ponder sent %s", sent)
	}
}

// Only the user's settings make a host's tool read-only.
func TestHostedServerTakesTheSettingsTreatment(t *testing.T) {
	h := newFakeHost(t, calcServer())
	m := startHosted(t, h, config.MCPServer{Tools: map[string]string{"add": config.MCPToolReadOnly, "slow": config.MCPToolDeny}}, Options{})
	var names []string
	for _, tl := range m.Tools() {
		names = append(names, tl.Name())
		if tl.Name() == "mcp__calc__add" && !tool.MarkedReadOnly(tl) {
			t.Error("add is not read-only though the settings say so")
		}
	}
	if strings.Join(names, ",") != "mcp__calc__add" {
		t.Errorf("offered %v; the settings deny slow", names)
	}
}

// Whatever the host answers instead of the response is an error the
// model reads, and nothing waits for an answer that will not come.
func TestHostedServerMalformedAnswers(t *testing.T) {
	cases := []struct {
		name   string
		answer func(resp json.RawMessage) (json.RawMessage, error)
		want   string
	}{
		{"not JSON", func(json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`{"jsonrpc":`), nil }, "not a JSON-RPC message"},
		{"not JSON-RPC", func(json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`{"hello":"there"}`), nil }, "not a JSON-RPC message"},
		{"nothing", func(json.RawMessage) (json.RawMessage, error) { return nil, nil }, "not a JSON-RPC message"},
		{"a request", func(json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}`), nil
		}, "a request instead of a response"},
		{"another id", func(json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`{"jsonrpc":"2.0","id":98765,"result":{"content":[{"type":"text","text":"forged"}]}}`), nil
		}, "another request"},
		{"a string id", func(resp json.RawMessage) (json.RawMessage, error) {
			var r map[string]any
			_ = json.Unmarshal(resp, &r)
			r["id"] = fmt.Sprint(r["id"])
			data, _ := json.Marshal(r)
			return data, nil
		}, "another request"},
		{"host error", func(json.RawMessage) (json.RawMessage, error) {
			return nil, errors.New("SDK MCP server not found: calc")
		}, "SDK MCP server not found"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newFakeHost(t, calcServer())
			var logged []string
			var mu sync.Mutex
			m := startHosted(t, h, config.MCPServer{}, Options{Logf: func(f string, a ...any) {
				mu.Lock()
				logged = append(logged, fmt.Sprintf(f, a...))
				mu.Unlock()
			}})
			h.mu.Lock()
			h.tamper = func(method string, resp json.RawMessage) (json.RawMessage, error, bool) {
				if method != "tools/call" {
					return resp, nil, false
				}
				a, err := c.answer(resp)
				return a, err, false
			}
			h.mu.Unlock()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			res := run(t, ctx, m, "mcp__calc__add", `{"a": 1, "b": 1}`)
			if !res.IsError || !strings.Contains(res.Content, c.want) || strings.Contains(res.Content, "forged") {
				t.Errorf("result %+v, want an error mentioning %q", res, c.want)
			}
			// The connection survives a bad answer.
			h.mu.Lock()
			h.tamper = nil
			h.mu.Unlock()
			if res := run(t, ctx, m, "mcp__calc__add", `{"a": 1, "b": 1}`); res.IsError || res.Content != "2" {
				t.Errorf("the next call: %+v", res)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(logged) == 0 {
				t.Error("the bad answer was not logged")
			}
		})
	}
}

// A host that never answers a call is bounded by the tool timeout, and
// an interrupt ends the wait at once; the host is told to drop the
// request either way.
func TestHostedServerHostNeverAnswers(t *testing.T) {
	h := newFakeHost(t, calcServer())
	m := startHosted(t, h, config.MCPServer{}, Options{ToolTimeout: 300 * time.Millisecond})
	h.mu.Lock()
	h.tamper = func(method string, resp json.RawMessage) (json.RawMessage, error, bool) {
		return nil, nil, method == "tools/call"
	}
	h.mu.Unlock()
	res := run(t, context.Background(), m, "mcp__calc__add", `{}`)
	if !res.IsError || !strings.Contains(res.Content, "did not answer within") {
		t.Errorf("result %+v", res)
	}
	if got := <-h.withdrawn; got != "tools/call" {
		t.Errorf("withdrawn %s", got)
	}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan tool.Result)
	go func() { done <- run(t, ctx, m, "mcp__calc__slow", `{}`) }()
	// The call is on its way once the host holds it.
	for m := range h.held {
		if m == "tools/call" {
			break
		}
	}
	cancel()
	res = <-done
	if !res.IsError || !strings.Contains(res.Content, "cancelled") {
		t.Errorf("result after the interrupt %+v", res)
	}
	if got := <-h.withdrawn; got != "tools/call" {
		t.Errorf("withdrawn %s", got)
	}
}

// A host that never answers the handshake fails the server within its
// start-up timeout; the session goes on without it.
func TestHostedServerStartTimeout(t *testing.T) {
	h := newFakeHost(t, calcServer())
	h.tamper = func(method string, resp json.RawMessage) (json.RawMessage, error, bool) { return nil, nil, true }
	start := time.Now()
	m := startHosted(t, h, config.MCPServer{}, Options{Timeout: 300 * time.Millisecond})
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the start took %s", took)
	}
	st := m.Status()[0]
	if st.State != StateFailed || !strings.Contains(st.Error, "start-up timeout") {
		t.Errorf("state %s %q", st.State, st.Error)
	}
	if len(m.Tools()) != 0 {
		t.Error("a failed server offers tools")
	}
}

// What the server sends on its own reaches the client; a response to no
// waiting request is ignored and logged.
func TestHostedServerDeliver(t *testing.T) {
	h := newFakeHost(t, calcServer())
	var logged []string
	var mu sync.Mutex
	m := startHosted(t, h, config.MCPServer{}, Options{Logf: func(f string, a ...any) {
		mu.Lock()
		logged = append(logged, fmt.Sprintf(f, a...))
		mu.Unlock()
	}})
	if err := m.Deliver("calc", json.RawMessage(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)); err != nil {
		t.Errorf("a notification: %v", err)
	}
	if err := m.Deliver("calc", json.RawMessage(`{"jsonrpc":"2.0","id":4242,"result":{}}`)); err != nil {
		t.Errorf("a stray response: %v", err)
	}
	mu.Lock()
	if len(logged) != 1 || !strings.Contains(logged[0], "4242") {
		t.Errorf("logged %q", logged)
	}
	mu.Unlock()
	if err := m.Deliver("calc", json.RawMessage(`nonsense`)); err == nil {
		t.Error("a message that is no JSON-RPC was taken")
	}
	if err := m.Deliver("other", json.RawMessage(`{"jsonrpc":"2.0","method":"x"}`)); err == nil {
		t.Error("a message for no server was taken")
	}
	if res := run(t, context.Background(), m, "mcp__calc__add", `{"a": 40, "b": 2}`); res.Content != "42" {
		t.Errorf("after the stray messages: %+v", res)
	}
}

// Without a host, a server of type sdk fails saying what it needs; the
// names a host serves join, unless they clash or cannot name tools.
func TestHostedServersWithoutAHostAndByName(t *testing.T) {
	m := Start(context.Background(), []config.MCPSource{{Name: "calc", Server: config.MCPServer{Type: "sdk"}}}, Options{})
	if st := m.Status()[0]; st.State != StateFailed || !strings.Contains(st.Error, "stream-json") {
		t.Errorf("without a host: %s %q", st.State, st.Error)
	}
	m.Close()

	h := newFakeHost(t, calcServer())
	m = Start(context.Background(), []config.MCPSource{{Name: "files", Server: config.MCPServer{Command: "no-such-mcp-server-anywhere"}}}, Options{Hosted: true, Timeout: 10 * time.Second})
	defer m.Close()
	h.m = m
	m.AttachHost(h.send)
	problems := m.Serve([]HostServer{{Name: "calc"}, {Name: "files"}, {Name: "bad__name"}})
	if len(problems) != 2 || !strings.Contains(problems[0], "configured") || !strings.Contains(problems[1], "bad__name") {
		t.Errorf("problems %q", problems)
	}
	if err := m.Ready(context.Background()); err != nil {
		t.Fatal(err)
	}
	states := map[string]string{}
	for _, s := range m.Status() {
		states[s.Name] = s.State + " " + s.Transport
	}
	if states["calc"] != "connected sdk" || states["files"] != "failed stdio" || !strings.HasPrefix(states["bad__name"], "failed") {
		t.Errorf("states %v", states)
	}
	for _, tl := range m.Tools() {
		if strings.HasPrefix(tl.Name(), "mcp__files__") {
			t.Errorf("the host's server stands in for a configured one: %s", tl.Name())
		}
	}
	// Naming a server again changes nothing.
	if problems := m.Serve([]HostServer{{Name: "calc"}}); len(problems) != 0 {
		t.Errorf("again: %q", problems)
	}
	// Messages for a configured server cannot be slipped in as the
	// host's.
	if err := m.Deliver("files", json.RawMessage(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)); err == nil {
		t.Error("the host delivered a message to a configured server")
	}
}

// A host that names ever more servers is cut off.
func TestHostedServersAreBounded(t *testing.T) {
	m := Start(context.Background(), nil, Options{Hosted: true})
	defer m.Close()
	var names []HostServer
	for i := range maxHostServers + 5 {
		names = append(names, HostServer{Name: fmt.Sprintf("s%d", i)})
	}
	if problems := m.Serve(names); len(problems) != 5 || !strings.Contains(problems[0], "at most") {
		t.Errorf("problems %q", problems)
	}
	if n := len(m.Status()); n != maxHostServers {
		t.Errorf("%d servers", n)
	}
}

// What the host says of its tools only narrows: a tool it denies is not
// offered nor run, one it wants asked about is not read-only even where
// the user's settings say so; nothing it says makes a tool read-only.
func TestHostNarrowsItsTools(t *testing.T) {
	h := newFakeHost(t, calcServer())
	m := startHosted(t, h, config.MCPServer{Tools: map[string]string{"*": config.MCPToolReadOnly}}, Options{})
	tools := m.Tools()
	m.Serve([]HostServer{{Name: "calc", Deny: []string{"slow"}, Ask: []string{"add"}}})
	// A host saying later that add may be read-only changes nothing.
	m.Serve([]HostServer{{Name: "calc", Ask: []string{"slow"}}})
	var names []string
	for _, tl := range m.Tools() {
		names = append(names, tl.Name())
		if tool.MarkedReadOnly(tl) {
			t.Errorf("%s is read-only though the host asked to be asked", tl.Name())
		}
	}
	if strings.Join(names, ",") != "mcp__calc__add" {
		t.Errorf("offered %v; the host denies slow", names)
	}
	for _, ti := range m.Status()[0].Tools {
		if ti.Remote == "slow" && ti.Skipped == "" || ti.ReadOnly {
			t.Errorf("status %+v", ti)
		}
	}
	// A tool taken before the host denied it does not run.
	for _, tl := range tools {
		if tl.Name() == "mcp__calc__slow" {
			call, _ := tl.Prepare(&tool.Env{}, nil)
			if res := call.Run(context.Background()); !res.IsError || !strings.Contains(res.Content, "denies") {
				t.Errorf("the denied tool ran: %+v", res)
			}
		}
	}
}

// BenchmarkHostedCall is one call of a host's tool through the control
// channel's connection (the host played in process).
func BenchmarkHostedCall(b *testing.B) {
	h := newFakeHost(b, calcServer())
	m := Start(context.Background(), []config.MCPSource{{Name: "calc", Server: config.MCPServer{Type: "sdk"}}}, Options{Hosted: true, Timeout: 10 * time.Second})
	defer m.Close()
	h.m = m
	m.AttachHost(h.send)
	if err := m.Ready(context.Background()); err != nil {
		b.Fatal(err)
	}
	var add tool.Tool
	for _, tl := range m.Tools() {
		if tl.Name() == "mcp__calc__add" {
			add = tl
		}
	}
	if add == nil {
		b.Fatal("no tool add")
	}
	b.ResetTimer()
	for range b.N {
		call, _ := add.Prepare(&tool.Env{}, json.RawMessage(`{"a":1,"b":2}`))
		if res := call.Run(context.Background()); res.Content != "3" {
			b.Fatalf("%+v", res)
		}
	}
}
