package headless

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
)

// The host's own MCP servers (the SDK's createSdkMcpServer, type sdk)
// speak MCP through the control channel, in the Claude Agent SDK's
// shapes:
//
//	ponder → host  {"type":"control_request","request_id":…,"request":{"subtype":"mcp_message","server_name":…,"message":<JSON-RPC>}}
//	host → ponder  {"type":"control_response","response":{"subtype":"success","request_id":…,"response":{"mcp_response":<JSON-RPC>}}}
//
// and what a server sends on its own comes as the host's control request
// of the same subtype. The session (app, mcpclient) does the rest, as for
// any MCP server.

// mcp carries one JSON-RPC message to the host's server as an mcp_message
// request (app.MCPHost): the request is written before it returns, and
// done gets the server's message from the answer's mcp_response.
func (h *hostCalls) mcp(ctx context.Context, server string, message json.RawMessage, done func(json.RawMessage, error)) error {
	id, ch, err := h.send(map[string]any{"subtype": "mcp_message", "server_name": server, "message": message})
	if err != nil {
		return err
	}
	go func() {
		payload, err := h.wait(ctx, id, ch)
		if err == nil {
			payload, err = mcpResponse(payload)
		}
		done(payload, err)
	}()
	return nil
}

// mcpResponse takes the server's message out of the host's answer.
func mcpResponse(payload json.RawMessage) (json.RawMessage, error) {
	var r struct {
		MCPResponse json.RawMessage `json:"mcp_response"`
	}
	if err := json.Unmarshal(payload, &r); err != nil {
		return nil, fmt.Errorf("the answer to mcp_message is not an object with mcp_response: %v", err)
	}
	if len(r.MCPResponse) == 0 || string(r.MCPResponse) == "null" {
		return nil, fmt.Errorf("the answer to mcp_message has no mcp_response")
	}
	return r.MCPResponse, nil
}

// sdkServerConfig is what the host says of one of its servers in
// initialize (sdkMcpServerConfigs): a permission policy per tool.
type sdkServerConfig struct {
	Tools []struct {
		Name   string `json:"name"`
		Policy string `json:"permission_policy"`
	} `json:"tools"`
}

// hostServers are the servers the host names, with the tools it denies
// or wants asked about. always_allow grants nothing (a host only
// narrows), and a policy ponder does not know asks.
func hostServers(names []string, configs map[string]sdkServerConfig) []app.HostMCPServer {
	out := make([]app.HostMCPServer, 0, len(names))
	for _, name := range names {
		hs := app.HostMCPServer{Name: name}
		for _, t := range configs[name].Tools {
			switch t.Policy {
			case "always_allow":
			case "always_deny":
				hs.Deny = append(hs.Deny, t.Name)
			default:
				hs.Ask = append(hs.Ask, t.Name)
			}
		}
		out = append(out, hs)
	}
	return out
}

// mcpMessage takes a message one of the host's servers sent on its own.
func (c *control) mcpMessage(id string, raw json.RawMessage) {
	var r struct {
		ServerName string          `json:"server_name"`
		Message    json.RawMessage `json:"message"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		c.reply(id, fmt.Errorf("mcp_message: %v", err))
		return
	}
	if err := c.app.DeliverHostMCP(r.ServerName, r.Message); err != nil {
		c.reply(id, fmt.Errorf("mcp_message for %q: %v", r.ServerName, err))
		return
	}
	c.replyWith(id, map[string]any{}, nil)
}

// mcpStatus lists the session's MCP servers as the SDK reads them
// (McpServerStatus): its state, where it came from, and its tools with
// what the server claims about them (shown, never trusted: ponder's own
// read-only mark is readOnly under ponder).
func (c *control) mcpStatus() []any {
	out := []any{}
	for _, s := range c.app.MCPServers() {
		st := map[string]any{"name": s.Name, "status": s.Status}
		if s.Error != "" && s.Status != "connected" {
			st["error"] = s.Error
		}
		switch {
		case s.Transport == "sdk":
			st["source"] = "sdk"
			st["config"] = map[string]any{"type": "sdk", "name": s.Name}
		case s.Transport != "":
			st["config"] = map[string]any{"type": s.Transport}
		}
		if s.From != "" {
			st["scope"] = s.From
		}
		if s.Status == "connected" {
			tools := []any{}
			for _, t := range s.Tools {
				if t.Skipped != "" {
					continue
				}
				tools = append(tools, mcpToolStatus(t))
			}
			st["tools"] = tools
		}
		out = append(out, st)
	}
	return out
}

// mcpToolStatus is one tool of a connected server.
func mcpToolStatus(t event.MCPTool) map[string]any {
	tool := map[string]any{"name": t.Remote, "ponder": map[string]any{"name": t.Name, "readOnly": t.ReadOnly}}
	if t.Annotated {
		tool["annotations"] = map[string]any{"readOnly": true}
	}
	return tool
}
