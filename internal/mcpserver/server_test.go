//lint:file-ignore SA1019 the test checks the log notifications of the protocol version clients use today

package mcpserver

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// planFile is the plan file the plan-mode reminder names.
func planFile(r *fakemodel.Request) string {
	for _, m := range r.Messages {
		if i := strings.Index(m.Text, "Create it at "); i >= 0 {
			return strings.Fields(m.Text[i+len("Create it at "):])[0]
		}
	}
	return "missing"
}

// connect serves ponder over pipes to a Go SDK client that records the
// notifications it gets, with the log level at debug.
func connect(t *testing.T, opts app.Options) (*mcp.ClientSession, *notes) {
	t.Helper()
	return connectAt(t, opts, "debug")
}

// connectAt is connect with the client setting the log level to level,
// or not at all when level is "".
func connectAt(t *testing.T, opts app.Options, level mcp.LoggingLevel) (*mcp.ClientSession, *notes) {
	t.Helper()
	cin, sout := io.Pipe()
	sin, cout := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, Options{App: opts, Version: "test", Stdin: sin, Stdout: sout}) }()
	n := &notes{}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			if m, ok := r.Params.Data.(map[string]any); ok {
				n.add(m["event"])
			}
		},
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { n.progress() },
	})
	// The protocol version clients use today, in which the log level is
	// the session's (the newest deprecates logging).
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: cin, Writer: cout}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		sin.Close()
		select {
		case <-served:
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return after the client left")
		}
	})
	if level != "" {
		if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: level}); err != nil {
			t.Fatal(err)
		}
	}
	return cs, n
}

type notes struct {
	mu     sync.Mutex
	events []string
	prog   int
	// more is closed and replaced at each event, for waiters.
	more chan struct{}
}

func (n *notes) add(e any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if s, ok := e.(string); ok {
		n.events = append(n.events, s)
	}
	if n.more != nil {
		close(n.more)
		n.more = nil
	}
}

// wait waits until an event of kind has arrived (notifications reach
// the client's handler apart from the call's answer), and reports
// whether it did within ten seconds.
func (n *notes) wait(kind string) bool {
	deadline := time.After(10 * time.Second)
	for {
		n.mu.Lock()
		if slices.Contains(n.events, kind) {
			n.mu.Unlock()
			return true
		}
		if n.more == nil {
			n.more = make(chan struct{})
		}
		more := n.more
		n.mu.Unlock()
		select {
		case <-more:
		case <-deadline:
			return false
		}
	}
}

func (n *notes) progress() { n.mu.Lock(); n.prog++; n.mu.Unlock() }

func (n *notes) seen(kind string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, e := range n.events {
		if e == kind {
			return true
		}
	}
	return false
}

func TestPlanThenImplementOverMCP(t *testing.T) {
	prov := fakemodel.NewProvider(fakemodel.Script{Replies: []fakemodel.Reply{
		{Name: "write plan", When: fakemodel.Match{LastUser: "add hello"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Write", InputFunc: func(r *fakemodel.Request) any {
				return map[string]any{"file_path": planFile(r), "content": "# Plan\n\nWrite hello.txt.\n"}
			}},
			{Name: "Write", Input: map[string]any{"file_path": "hello.txt", "content": "too early"}},
		}},
		{Name: "exit", When: fakemodel.Match{ToolResult: "Plan mode is on"}, ToolCalls: []fakemodel.ToolCall{{Name: "ExitPlanMode", Input: map[string]any{}}}},
		{Name: "revise", When: fakemodel.Match{LastUser: "say hello twice"}, ToolCalls: []fakemodel.ToolCall{{Name: "ExitPlanMode", Input: map[string]any{}}}},
		{Name: "implement", When: fakemodel.Match{LastUser: "approved your plan"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Write", Input: map[string]any{"file_path": "hello.txt", "content": "hello\n"}},
		}},
		{Name: "done", When: fakemodel.Match{ToolResult: "hello.txt ("}, Text: "Done."},
	}})
	base := t.TempDir()
	dir := filepath.Join(base, "project")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	opts := app.Options{Dir: dir, ConfigDir: filepath.Join(base, "config"), LLM: prov, Getenv: func(string) string { return "" }}
	cs, n := connect(t, opts)
	ctx := context.Background()

	params := &mcp.CallToolParams{Name: "plan", Arguments: map[string]any{"task": "add hello"}}
	params.SetProgressToken("p1")
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := res.StructuredContent.(map[string]any)
	if res.IsError || out["status"] != "plan_pending" || !strings.Contains(out["plan"].(string), "Write hello.txt") {
		t.Fatalf("plan: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(dir, "hello.txt")); err == nil {
		t.Fatal("planning wrote a project file")
	}
	if !n.seen("plan_mode_entered") || !n.seen("plan_exit_requested") || !n.seen("tool_refused") || n.prog == 0 {
		t.Errorf("notifications: %v, %d progress", n.events, n.prog)
	}

	// Sent back with feedback, the plan comes back for approval again.
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "implement", Arguments: map[string]any{"session_id": out["session_id"], "option": "reject", "feedback": "say hello twice"}})
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := res.StructuredContent.(map[string]any); res.IsError || again["status"] != "plan_pending" || again["session_id"] != out["session_id"] {
		t.Fatalf("reject: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(dir, "hello.txt")); err == nil {
		t.Fatal("a rejected plan wrote a project file")
	}

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "implement", Arguments: map[string]any{"session_id": out["session_id"]}})
	if err != nil {
		t.Fatal(err)
	}
	if out2, _ := res.StructuredContent.(map[string]any); res.IsError || out2["status"] != "done" {
		t.Fatalf("implement: %+v", res)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "hello.txt")); string(data) != "hello\n" {
		t.Errorf("hello.txt after implement: %q", data)
	}

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "implement", Arguments: map[string]any{"session_id": out["session_id"], "option": "nonsense"}})
	if err != nil || !res.IsError {
		t.Errorf("an unknown option was taken: %+v, %v", res, err)
	}
}
