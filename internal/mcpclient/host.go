package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ponder-agent/ponder/internal/config"
)

// The SDK host's servers (type sdk) join a session after it started: the
// front end that reads the host's control channel attaches the host once
// it can carry messages (AttachHost), and the host names the servers it
// serves in its initialize request (Serve). Each connects in the
// background within its start-up timeout; a turn waits for them (Ready)
// before the model is offered their tools.

// errNeedsHost is why a server of type sdk cannot start without a host.
const errNeedsHost = "a server of type sdk lives in the program that drives ponder through the Claude Agent SDK; " +
	"it is reachable only when that program runs ponder with stream-json input and output"

// maxHostServers bounds the servers a host may name; more are refused.
const maxHostServers = 50

// hosted says the server lives in the SDK host.
func (s *server) hosted() bool { return s.spec.Server.Type == "sdk" }

// AttachHost gives the manager the way to the host's servers and starts
// connecting those the settings or --mcp-config name with type sdk.
func (m *Manager) AttachHost(h HostFunc) {
	if m == nil || h == nil {
		return
	}
	m.mu.Lock()
	m.host = h
	m.mu.Unlock()
	for _, s := range m.list() {
		if s.hosted() && s.status().State == StatePending {
			m.launch(s)
		}
	}
}

// HostServer is one server the host serves, with what the host says of
// its tools: Deny keeps tools from the model, Ask has them ask before
// each call (they never count as read-only). A host can only narrow what
// ponder does with its tools, never widen it.
type HostServer struct {
	Name      string
	Deny, Ask []string
}

// Serve connects the servers the host says it serves, by name. A name
// that the settings define with type sdk takes that definition (its tool
// treatments, its timeouts): only the user's settings can make a host's
// tool count as read-only. A name another server already has is refused
// (so no host's tool can stand in for a configured server's), as is a name
// that cannot be part of tool names. It returns why each refused name was
// refused.
func (m *Manager) Serve(servers []HostServer) []string {
	if m == nil {
		return nil
	}
	var problems []string
	for _, hs := range servers {
		name := hs.Name
		m.mu.Lock()
		var found *server
		for _, s := range m.servers {
			if s.spec.Name == name {
				found = s
			}
		}
		if found == nil && m.hostedCount() >= maxHostServers {
			m.mu.Unlock()
			problems = append(problems, fmt.Sprintf("the SDK host's MCP server %q is not connected: a host may serve at most %d", name, maxHostServers))
			continue
		}
		if found == nil {
			spec := config.MCPSource{Name: name, Server: config.MCPServer{Type: "sdk"}, From: "the SDK host"}
			found = newServer(spec, m.o)
			m.servers = append(m.servers, found)
			if err := config.CheckMCPName(name); err != nil {
				found.setState(StateFailed, err.Error())
				m.mu.Unlock()
				problems = append(problems, fmt.Sprintf("the SDK host's MCP server %q is not connected: %v", name, err))
				continue
			}
			found.setState(StatePending, "waiting for the SDK host to serve it")
		}
		host := m.host
		m.mu.Unlock()
		if !found.hosted() {
			problems = append(problems, fmt.Sprintf("the SDK host serves an MCP server named %s, but a %s server of that name is configured (%s); the host's is not connected", name, found.status().Transport, found.spec.From))
			continue
		}
		found.narrow(hs)
		if host != nil && found.status().State == StatePending {
			m.launch(found)
		}
	}
	return problems
}

// narrow takes what the host says of its server's tools. It only ever
// adds to what was said: a tool denied stays denied.
func (s *server) narrow(hs HostServer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(hs.Deny)+len(hs.Ask) == 0 {
		return
	}
	if s.hostSays == nil {
		s.hostSays = map[string]string{}
	}
	for _, t := range hs.Ask {
		if s.hostSays[t] == "" {
			s.hostSays[t] = config.MCPToolWrite
		}
	}
	for _, t := range hs.Deny {
		s.hostSays[t] = config.MCPToolDeny
	}
}

// hostedCount is how many servers of the host there are. The caller
// holds m.mu.
func (m *Manager) hostedCount() int {
	n := 0
	for _, s := range m.servers {
		if s.hosted() {
			n++
		}
	}
	return n
}

// launch connects a host's server in the background.
func (m *Manager) launch(s *server) {
	s.mu.Lock()
	if s.ready != nil {
		s.mu.Unlock()
		return // connecting, or connected, already
	}
	ready := make(chan struct{})
	s.ready = ready
	s.st.Error = "connecting"
	s.mu.Unlock()
	m.mu.Lock()
	s.host = m.host
	m.mu.Unlock()
	go func() {
		defer close(ready)
		s.start(m.ctx)
	}()
}

// Ready waits until every host's server that is connecting has connected
// or failed (each within its start-up timeout), or ctx ends.
func (m *Manager) Ready(ctx context.Context) error {
	if m == nil {
		return nil
	}
	for _, s := range m.list() {
		s.mu.Lock()
		ready := s.ready
		s.mu.Unlock()
		if ready == nil {
			continue
		}
		select {
		case <-ready:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// Deliver hands a message a host's server sent on its own (a
// notification, a request of its own) to its connection.
func (m *Manager) Deliver(name string, message json.RawMessage) error {
	if m == nil {
		return fmt.Errorf("no MCP server named %q is connected", name)
	}
	for _, s := range m.list() {
		if s.spec.Name != name || !s.hosted() {
			continue
		}
		s.mu.Lock()
		c := s.conn
		s.mu.Unlock()
		if c == nil {
			return fmt.Errorf("the MCP server %s is not connected", name)
		}
		return c.receive(message)
	}
	return fmt.Errorf("no MCP server of the SDK host is named %q", name)
}
