package acp

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// testClient is an editor made of the Go SDK's client side: it records
// every update and permission request, and answers requests with answer.
type testClient struct {
	mu      sync.Mutex
	changed chan struct{}
	updates []sdk.SessionNotification
	perms   []sdk.RequestPermissionRequest
	// answer answers a permission request; nil cancels it.
	answer func(ctx context.Context, r sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error)
	// files, when not nil, are the editor's buffers for fs requests.
	files  map[string]string
	writes []sdk.WriteTextFileRequest
	reads  []sdk.ReadTextFileRequest
}

func newTestClient() *testClient { return &testClient{changed: make(chan struct{})} }

// note records a change and wakes waiters.
func (c *testClient) note(f func()) {
	c.mu.Lock()
	f()
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

func (c *testClient) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	c.note(func() { c.updates = append(c.updates, n) })
	return nil
}

func (c *testClient) RequestPermission(ctx context.Context, r sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	c.note(func() { c.perms = append(c.perms, r) })
	c.mu.Lock()
	answer := c.answer
	c.mu.Unlock()
	if answer == nil {
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}, nil
	}
	return answer(ctx, r)
}

func (c *testClient) ReadTextFile(_ context.Context, r sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads = append(c.reads, r)
	text, ok := c.files[r.Path]
	if !ok {
		return sdk.ReadTextFileResponse{}, sdk.NewInvalidParams(map[string]any{"error": "no such buffer"})
	}
	return sdk.ReadTextFileResponse{Content: text}, nil
}

func (c *testClient) WriteTextFile(_ context.Context, r sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	c.note(func() {
		c.writes = append(c.writes, r)
		if c.files != nil {
			c.files[r.Path] = r.Content
		}
	})
	return sdk.WriteTextFileResponse{}, nil
}

var errNoTerminal = errors.New("this client has no terminals")

func (c *testClient) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, errNoTerminal
}
func (c *testClient) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, errNoTerminal
}
func (c *testClient) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, errNoTerminal
}
func (c *testClient) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, errNoTerminal
}
func (c *testClient) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, errNoTerminal
}

// waitFor waits until cond holds for what the client has seen.
func (c *testClient) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		ok := cond()
		ch := c.changed
		c.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-deadline.C:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// modeUpdates lists the modes of current_mode_update notifications.
func (c *testClient) modeUpdates() []string {
	var out []string
	for _, u := range c.updates {
		if m := u.Update.CurrentModeUpdate; m != nil {
			out = append(out, string(m.CurrentModeId))
		}
	}
	return out
}

// agentText is the agent message text sent so far.
func (c *testClient) agentText() string {
	var b strings.Builder
	for _, u := range c.updates {
		if m := u.Update.AgentMessageChunk; m != nil && m.Content.Text != nil {
			b.WriteString(m.Content.Text.Text)
		}
	}
	return b.String()
}

// toolCall finds the announcement of a call by its title's prefix.
func (c *testClient) toolCall(prefix string) *sdk.SessionUpdateToolCall {
	for _, u := range c.updates {
		if tc := u.Update.ToolCall; tc != nil && strings.HasPrefix(tc.Title, prefix) {
			return tc
		}
	}
	return nil
}

// lastStatus is the last status reported for a call.
func (c *testClient) lastStatus(id sdk.ToolCallId) sdk.ToolCallStatus {
	var st sdk.ToolCallStatus
	for _, u := range c.updates {
		if tc := u.Update.ToolCall; tc != nil && tc.ToolCallId == id {
			st = tc.Status
		}
		if tu := u.Update.ToolCallUpdate; tu != nil && tu.ToolCallId == id && tu.Status != nil {
			st = *tu.Status
		}
	}
	return st
}

// rig is ponder acp served over pipes to a Go SDK client, with the fake
// model in process.
type rig struct {
	t      *testing.T
	client *testClient
	conn   *sdk.ClientSideConnection
	model  *fakemodel.Provider
	base   string
	dir    string
	cfg    string
	log    *strings.Builder
	// close ends the connection, as an editor that quits, and waits for
	// ponder acp to close its sessions.
	close func()
}

// options changes the base options of a rig's sessions.
type options func(*Options)

// newRig serves ponder acp for a project under base (a fresh one when
// base is "") and connects a client.
func newRig(t *testing.T, base string, script []fakemodel.Reply, opts ...options) *rig {
	t.Helper()
	if base == "" {
		base = t.TempDir()
	}
	t.Setenv("HOME", base)
	r := &rig{t: t, client: newTestClient(), model: fakemodel.NewProvider(fakemodel.Script{Replies: script}), base: base,
		dir: filepath.Join(base, "project"), cfg: filepath.Join(base, "config"), log: &strings.Builder{}}
	if err := os.MkdirAll(r.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	toAgentR, toAgentW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	o := Options{
		App: app.Options{ConfigDir: r.cfg, LLM: r.model, Getenv: func(string) string { return "" }, PlanName: "acp-plan"},
		In:  toAgentR, Out: toClientW, Log: &lockedWriter{w: r.log}, Version: "test",
	}
	for _, f := range opts {
		f(&o)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = Serve(context.Background(), o)
		toClientW.Close()
	}()
	fromAgent := newGate(toClientR)
	r.conn = sdk.NewClientSideConnection(r.client, toAgentW, fromAgent)
	r.conn.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	fromAgent.open()
	r.close = func() {
		toAgentW.Close()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("ponder acp did not stop after the client went away")
		}
	}
	t.Cleanup(r.close)
	return r
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (r *rig) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	r.t.Cleanup(cancel)
	return ctx
}

// start initializes the connection and opens a session.
func (r *rig) start() (sdk.InitializeResponse, sdk.NewSessionResponse) {
	r.t.Helper()
	return r.startWith(sdk.ClientCapabilities{})
}

// startWith is start for a client with caps.
func (r *rig) startWith(caps sdk.ClientCapabilities) (sdk.InitializeResponse, sdk.NewSessionResponse) {
	r.t.Helper()
	init, err := r.conn.Initialize(r.ctx(), sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber, ClientCapabilities: caps})
	if err != nil {
		r.t.Fatalf("initialize: %v", err)
	}
	sess, err := r.conn.NewSession(r.ctx(), sdk.NewSessionRequest{Cwd: r.dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		r.t.Fatalf("session/new: %v", err)
	}
	return init, sess
}

// prompt sends text and returns how the turn ended.
func (r *rig) prompt(id sdk.SessionId, text string) sdk.PromptResponse {
	r.t.Helper()
	resp, err := r.conn.Prompt(r.ctx(), sdk.PromptRequest{SessionId: id, Prompt: []sdk.ContentBlock{sdk.TextBlock(text)}})
	if err != nil {
		for _, q := range r.model.Requests() {
			r.t.Logf("%s: %+v", q.Reply, q.LastUser().ToolResults)
		}
		r.t.Fatalf("session/prompt: %v\nlog:\n%s", err, r.log.String())
	}
	return resp
}

// pick answers every permission request with the option id.
func pick(id string) func(context.Context, sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	return func(context.Context, sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(sdk.PermissionOptionId(id))}, nil
	}
}

// optionIDs lists a request's option ids.
func optionIDs(r sdk.RequestPermissionRequest) []string {
	var out []string
	for _, o := range r.Options {
		out = append(out, string(o.OptionId))
	}
	return out
}

// contentText is the text of tool call content.
func contentText(cs []sdk.ToolCallContent) string {
	var b strings.Builder
	for _, c := range cs {
		if c.Content != nil && c.Content.Content.Text != nil {
			b.WriteString(c.Content.Content.Text.Text)
		}
	}
	return b.String()
}
