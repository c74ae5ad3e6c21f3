// Package mcpclient connects a session to the MCP servers its settings
// name, over stdio or streamable HTTP, with the official Go SDK, and turns
// their tools into ponder tools named mcp__<server>__<tool>. Servers start
// together when the session opens, each within its start-up timeout; one
// that fails, hangs or lists nothing usable is reported and skipped, never
// a reason for the session not to start. Close stops them all.
//
// What a server says about its tools is taken as a claim, never as a
// grant: a tool counts as read-only (and so may run unasked, and in plan
// mode) only when the user's settings for the server say so; its
// readOnlyHint is shown to help the user decide. The settings can also
// mark a tool as a writer or keep it from the model. Tool names, schemas
// and descriptions are checked and bounded before the model sees them.
package mcpclient

import (
	"context"
	"sync"
	"time"

	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/tool"
)

// The states of a server.
const (
	StateConnected = "connected"
	StateFailed    = "failed"
	StateDisabled  = "disabled"
	// StateClosed is a server that was running and went away (it
	// exited, or its connection broke).
	StateClosed = "closed"
	// StatePending is a server of the SDK host (type sdk) that waits
	// for the host, or is connecting in the background.
	StatePending = "pending"
)

// DefaultTimeout is how long a server may take to start and list its
// tools unless its settings or $PONDER_MCP_TIMEOUT say otherwise.
const DefaultTimeout = 30 * time.Second

// DefaultToolTimeout is how long one tool call may take unless the
// server's settings or $PONDER_MCP_TOOL_TIMEOUT say otherwise.
const DefaultToolTimeout = 10 * time.Minute

// Options are what every server of a session shares.
type Options struct {
	// Dir is the project root, where stdio servers start unless their
	// settings name a cwd.
	Dir string
	// Environ is the environment stdio servers start from (ponder's own
	// credentials already removed); each server's env is laid over it.
	Environ []string
	// Getenv expands ${NAME} in server definitions.
	Getenv func(string) string
	// Credential reports the names ${NAME} may not expand (ponder's own
	// model credentials).
	Credential func(string) bool
	// Timeout is the start-up timeout of servers whose settings give
	// none; DefaultTimeout when zero.
	Timeout time.Duration
	// ToolTimeout bounds one tool call of servers whose settings give no
	// toolTimeout; DefaultToolTimeout when zero.
	ToolTimeout time.Duration
	// Version is ponder's version, told to servers.
	Version string
	// Hosted says a host program may serve servers of type sdk later
	// (Manager.AttachHost): ponder runs with stream-json input and
	// output. Without it such servers fail, saying what they need.
	Hosted bool
	// Logf notes what a host's servers did that was ignored (nil: not
	// noted).
	Logf func(format string, args ...any)
}

// ToolInfo describes one tool of a server as the session sees it.
type ToolInfo struct {
	// Name is the tool's name in ponder (mcp__server__tool); Remote its
	// name on the server.
	Name, Remote string
	// ReadOnly says the tool counts as read-only; Annotated that the
	// server annotated it so.
	ReadOnly, Annotated bool
	// Skipped says why the tool is not offered at all ("" when it is):
	// denied in settings, a name or schema ponder cannot use.
	Skipped string
}

// Status is what a session knows of one server.
type Status struct {
	Name string
	// From is where the server was configured.
	From string
	// Transport is "stdio" or "http".
	Transport string
	// State is one of the State* constants; Error says why a server
	// failed or closed.
	State, Error string
	Tools        []ToolInfo
}

// Manager owns a session's MCP servers.
type Manager struct {
	o Options
	// ctx ends when the manager closes; servers connecting in the
	// background stop with it.
	ctx    context.Context
	cancel context.CancelFunc
	closed sync.Once

	mu      sync.Mutex
	servers []*server
	// host carries messages to the SDK host's servers, once attached.
	host HostFunc
}

// Start connects to every server in specs at once and waits until each
// has listed its tools, failed, or run out of time. It never fails: a
// server that cannot be used is in the returned manager with its reason.
func Start(ctx context.Context, specs []config.MCPSource, o Options) *Manager {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.ToolTimeout <= 0 {
		o.ToolTimeout = DefaultToolTimeout
	}
	m := &Manager{o: o}
	m.ctx, m.cancel = context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, spec := range specs {
		s := newServer(spec, o)
		m.servers = append(m.servers, s)
		if spec.Server.Disabled {
			s.setState(StateDisabled, "")
			continue
		}
		if err := config.CheckMCPServer(spec.Name, spec.Server); err != nil {
			s.setState(StateFailed, err.Error())
			continue
		}
		if s.hosted() {
			if o.Hosted {
				s.setState(StatePending, "waiting for the SDK host to serve it")
			} else {
				s.setState(StateFailed, errNeedsHost)
			}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.start(ctx)
		}()
	}
	wg.Wait()
	return m
}

// Tools returns the tools of every connected server, in server order.
func (m *Manager) Tools() []tool.Tool {
	if m == nil {
		return nil
	}
	var out []tool.Tool
	for _, s := range m.list() {
		out = append(out, s.offered()...)
	}
	return out
}

// list is the servers, as they are now.
func (m *Manager) list() []*server {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*server(nil), m.servers...)
}

// Status reports every server, in the order they were configured.
func (m *Manager) Status() []Status {
	if m == nil {
		return nil
	}
	servers := m.list()
	out := make([]Status, len(servers))
	for i, s := range servers {
		out[i] = s.status()
	}
	return out
}

// Close stops every server and waits for them, in parallel.
func (m *Manager) Close() {
	if m == nil {
		return
	}
	m.closed.Do(func() {
		m.cancel()
		var wg sync.WaitGroup
		for _, s := range m.list() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s.close()
			}()
		}
		wg.Wait()
	})
}
