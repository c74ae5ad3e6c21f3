package app

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/mcpclient"
)

// MCP servers the host program serves itself (type sdk: a Claude Agent
// SDK host's createSdkMcpServer) reach the session through the front end
// that reads the host's control channel. It attaches the way to the host
// (AttachMCPHost) once it reads the host's input, names the servers the
// host serves (ServeHostMCP) and hands over what those servers send on
// their own (DeliverHostMCP). Their tools are the session's from the next
// turn on: a turn waits for servers still connecting, each within its
// start-up timeout, before the model is offered its tools. From then on
// they are MCP tools like any other: the permission rules, plan mode and
// the read-only mark (only the user's settings give it) hold for them.

// MCPHost carries one JSON-RPC message to the host's server named server.
// It writes the message before returning (an error when it cannot, and
// then done is never called), and later calls done once with the server's
// JSON-RPC message the host answered with (the response, for a request),
// or with an error: the host failed the request, is gone, or ctx ended.
type MCPHost = mcpclient.HostFunc

// HostMCPServer is one MCP server the host serves, by name, with what the
// host says of its tools: Deny keeps tools from the model, Ask has them
// ask before each call. A host can only narrow.
type HostMCPServer = mcpclient.HostServer

// AttachMCPHost gives the session the way to the host's MCP servers, and
// starts connecting those the settings or --mcp-config name with type sdk.
// It needs Options.HostMCP.
func (a *App) AttachMCPHost(h MCPHost) { a.mcp.AttachHost(h) }

// ServeHostMCP connects the MCP servers the host says it serves, by name,
// in the background. A name a configured server of another type has, or
// one that cannot be part of a tool name, is refused with a warning.
func (a *App) ServeHostMCP(servers []HostMCPServer) {
	if a.mcp == nil {
		a.emit(event.Notice{Level: "warning", Text: "the host's MCP servers cannot be connected in this run: they need stream-json input and output"})
		return
	}
	for _, p := range a.mcp.Serve(servers) {
		a.emit(event.Notice{Level: "warning", Text: p})
	}
}

// DeliverHostMCP hands over a message one of the host's MCP servers sent
// on its own (a notification, a request of its own).
func (a *App) DeliverHostMCP(server string, message json.RawMessage) error {
	return a.mcp.Deliver(server, message)
}

// adoptHostMCP waits for the host's servers still connecting (or for ctx
// to end: an interrupt) and adds the tools of those now connected to the
// session's, so the turn about to start offers them. A host's server that
// failed is said once.
func (a *App) adoptHostMCP(ctx context.Context) {
	if a.mcp == nil || !a.opts.HostMCP {
		return
	}
	_ = a.mcp.Ready(ctx)
	added := false
	for _, t := range a.mcp.Tools() {
		if _, ok := a.tools.Get(t.Name()); !ok {
			a.tools.Add(t)
			added = true
		}
	}
	if added {
		a.launcher.judge(judgeKinds(a.tools))
	}
	for _, s := range a.mcp.Status() {
		if s.Transport != "sdk" || s.State != mcpclient.StateFailed {
			continue
		}
		a.mu.Lock()
		said := a.hostMCPSaid[s.Name]
		if a.hostMCPSaid == nil {
			a.hostMCPSaid = map[string]bool{}
		}
		a.hostMCPSaid[s.Name] = true
		a.mu.Unlock()
		if !said {
			a.emit(event.Notice{Level: "warning", Text: fmt.Sprintf("MCP server %s (%s) failed and is skipped: %s", s.Name, s.From, s.Error)})
		}
	}
}
