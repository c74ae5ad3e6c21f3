package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

// Bounds on what a server may put before the model.
const (
	// maxNameLen is the longest tool name both model APIs accept.
	maxNameLen = 64
	// maxDescription is how much of a tool's description the model sees.
	maxDescription = 2048
	// maxSchema is the largest input schema taken, in bytes.
	maxSchema = 64 << 10
	// maxResult is how much of a call's result the model receives.
	maxResult = 100_000
)

// Prefix starts the name of every MCP tool.
const Prefix = "mcp__"

// ToolName is the name the model calls a server's tool by.
func ToolName(server, remote string) string { return Prefix + server + "__" + remote }

// listTools asks the server for its tools and builds those ponder can
// offer; the rest are recorded with the reason they are not.
func (s *server) listTools(ctx context.Context, cs *mcp.ClientSession) error {
	var infos []ToolInfo
	var tools []*mcpTool
	seen := map[string]bool{}
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("listing its tools: %w", err)
		}
		if len(infos) == maxTools {
			infos = append(infos, ToolInfo{Remote: "…", Skipped: fmt.Sprintf("the server lists more than %d tools; the rest are ignored", maxTools)})
			break
		}
		mt, info := s.newTool(t, seen)
		infos = append(infos, info)
		if mt != nil {
			tools = append(tools, mt)
		}
	}
	s.mu.Lock()
	s.st.Tools, s.tools = infos, tools
	s.mu.Unlock()
	return nil
}

// newTool turns a server's tool into a ponder tool, or says why it
// cannot be one.
func (s *server) newTool(t *mcp.Tool, seen map[string]bool) (*mcpTool, ToolInfo) {
	name := ToolName(s.spec.Name, t.Name)
	info := ToolInfo{Name: name, Remote: t.Name, Annotated: claimsReadOnly(t.Annotations)}
	if !utf8.ValidString(t.Name) {
		info.Name, info.Remote = "", strings.ToValidUTF8(t.Name, "?")
	}
	if why := checkToolName(t.Name, name); why != "" {
		info.Skipped = why
		return nil, info
	}
	if seen[t.Name] {
		info.Skipped = "the server lists a tool of this name twice; the first counts"
		return nil, info
	}
	seen[t.Name] = true
	switch s.treatment(t.Name) {
	case config.MCPToolDeny:
		info.Skipped = "denied in the settings"
		return nil, info
	case config.MCPToolReadOnly:
		info.ReadOnly = true
	case config.MCPToolWrite:
		info.ReadOnly = false
	default:
		// A server's readOnlyHint is its own word, and a server can lie:
		// only the user's settings make a tool read-only.
		info.ReadOnly = false
	}

	schema, why := inputSchema(t.InputSchema)
	if why != "" {
		info.Skipped = why
		return nil, info
	}
	doc := t.Description
	if doc == "" {
		doc = t.Title
	}
	doc = clip(strings.ToValidUTF8(doc, "?"), maxDescription)
	mt := &mcpTool{
		Meta:   tool.Meta{ToolName: name, ToolKind: permission.KindExternal, Doc: doc, InputSchema: schema, Parallel: info.ReadOnly},
		server: s, remote: t.Name,
	}
	mt.readOnly.Store(info.ReadOnly)
	return mt, info
}

// claimsReadOnly reports whether annotations say the tool only reads: a
// readOnlyHint, and no destructiveHint saying the opposite (a server
// that makes both claims gets the one that gives it less).
func claimsReadOnly(a *mcp.ToolAnnotations) bool {
	return a != nil && a.ReadOnlyHint && (a.DestructiveHint == nil || !*a.DestructiveHint)
}

// treatment is what the settings say of a tool: its own entry, else the
// server's "*", else nothing.
func (s *server) treatment(remote string) string {
	tools := s.spec.Server.Tools
	if how, ok := tools[remote]; ok {
		return how
	}
	return tools["*"]
}

// checkToolName says why a server's tool name cannot be offered, or "".
// Names keep to what both model APIs accept; the "__" that separates
// server from tool may appear in a tool's own name (the server is always
// what comes before the first one).
func checkToolName(remote, full string) string {
	if remote == "" {
		return "the tool has no name"
	}
	for _, r := range remote {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return "the tool's name may hold only letters, digits, '-' and '_'"
		}
	}
	if len(full) > maxNameLen {
		return fmt.Sprintf("%s is longer than %d characters", full, maxNameLen)
	}
	return ""
}

// inputSchema returns the tool's input schema as the model APIs take it
// (a JSON object schema), or why it cannot be used.
func inputSchema(in any) (json.RawMessage, string) {
	if in == nil {
		return json.RawMessage(`{"type":"object","properties":{}}`), ""
	}
	data, err := json.Marshal(in)
	if err != nil {
		return nil, "its input schema cannot be read: " + err.Error()
	}
	if len(data) > maxSchema {
		return nil, fmt.Sprintf("its input schema is larger than %d KB", maxSchema>>10)
	}
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, "its input schema is not a JSON object"
	}
	switch typ := obj["type"]; typ {
	case nil:
		obj["type"] = "object"
	case "object":
	default:
		return nil, fmt.Sprintf("its input schema describes %v, not an object", typ)
	}
	data, _ = json.Marshal(obj)
	return data, ""
}

// mcpTool is one tool of a server, as the model sees it.
type mcpTool struct {
	tool.Meta
	server *server
	remote string
	// readOnly is the user's mark; the user may give it while the
	// session runs (Manager.MarkReadOnly).
	readOnly atomic.Bool
}

// ReadOnly says whether the tool counts as read-only (tool.ReadOnlyMarker):
// the user's settings said so, and no host has said to ask first.
func (t *mcpTool) ReadOnly() bool { return t.readOnly.Load() && t.server.hostSay(t.remote) == "" }

// Prepare takes the input as the arguments of the call; it must be a
// JSON object (or nothing).
func (t *mcpTool) Prepare(_ *tool.Env, input json.RawMessage) (tool.Call, error) {
	args := bytes.TrimSpace(input)
	if len(args) == 0 || bytes.Equal(args, []byte("null")) {
		args = []byte("{}")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil {
		return nil, fmt.Errorf("the input must be a JSON object")
	}
	return &mcpCall{t: t, args: json.RawMessage(args)}, nil
}

type mcpCall struct {
	t    *mcpTool
	args json.RawMessage
}

// Access declares an external call; the agent loop adds the name, kind
// and read-only mark.
func (c *mcpCall) Access() permission.Access {
	return permission.Access{Kind: permission.KindExternal, ReadOnly: c.t.ReadOnly()}
}

// Run calls the tool on its server and renders the result as text.
func (c *mcpCall) Run(ctx context.Context) tool.Result {
	if c.t.server.hostSay(c.t.remote) == config.MCPToolDeny {
		return tool.Errorf("The SDK host denies calls of %s.", c.t.Name())
	}
	cs, err := c.t.server.current()
	if err != nil {
		return tool.Errorf("%v", err)
	}
	limit := c.t.server.toolTimeout()
	cctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	res, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: c.t.remote, Arguments: c.args})
	if err != nil {
		if ctx.Err() != nil {
			return tool.Errorf("The call of %s was cancelled.", c.t.Name())
		}
		if cctx.Err() != nil {
			return tool.Errorf("%s did not answer within %s (the server's tool timeout) and was cancelled.", c.t.Name(), limit.Round(time.Millisecond))
		}
		if errors.Is(err, mcp.ErrConnectionClosed) {
			// The server went away; its exit may not be noticed yet.
			return tool.Errorf("The MCP server %s is not running (its connection closed during the call of %s).", c.t.server.spec.Name, c.t.remote)
		}
		return tool.Errorf("The MCP server %s failed the call of %s: %v", c.t.server.spec.Name, c.t.remote, err)
	}
	text := render(res)
	out := tool.Result{Content: text, IsError: res.IsError, Summary: summary(c.t.Name(), res)}
	if out.IsError && strings.TrimSpace(text) == "" {
		out.Content = c.t.Name() + " reported an error without a message."
	}
	return out
}

// render turns a result's content into text for the model: text as it is,
// other content described in a line, structured content as JSON when
// there is nothing else. It is cut to maxResult characters.
func render(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, c.Text)
		case *mcp.ImageContent:
			parts = append(parts, fmt.Sprintf("[image %s, %d bytes]", c.MIMEType, len(c.Data)))
		case *mcp.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio %s, %d bytes]", c.MIMEType, len(c.Data)))
		case *mcp.ResourceLink:
			parts = append(parts, fmt.Sprintf("[resource %s]", c.URI))
		case *mcp.EmbeddedResource:
			if r := c.Resource; r != nil && r.Text != "" {
				parts = append(parts, r.Text)
			} else if r != nil {
				parts = append(parts, fmt.Sprintf("[resource %s, %d bytes]", r.URI, len(r.Blob)))
			}
		}
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if data, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(data))
		}
	}
	return clip(strings.ToValidUTF8(strings.Join(parts, "\n"), "?"), maxResult)
}

// summary is the one line front ends show for a finished call.
func summary(name string, res *mcp.CallToolResult) string {
	if res.IsError {
		return name + " failed"
	}
	return name + " done"
}

// clip cuts s to n characters, saying so.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + fmt.Sprintf("\n[… cut: %d more characters]", len(r)-n)
}
