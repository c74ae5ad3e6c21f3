package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ponder-agent/ponder/internal/smallfile"
)

// MCPServer is one MCP server as settings (mcpServers), a project's
// .mcp.json and --mcp-config describe it, in the shape other coding agents
// use: a command to start (stdio) or a URL to post to (streamable HTTP).
//
//	{"mcpServers": {
//	  "github": {"command": "github-mcp", "args": ["stdio"], "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}},
//	  "docs":   {"type": "http", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${DOCS_TOKEN}"}},
//	  "notes":  {"command": "notes-mcp", "tools": {"*": "readOnly", "purge": "deny"}}
//	}}
//
// Strings may name environment variables as ${NAME} or ${NAME:-default};
// ponder's own model credentials are never expanded.
type MCPServer struct {
	// Type is "stdio" (the default when Command is set), "http" (also
	// "streamable-http") or "sdk": a server the program driving ponder
	// through the Claude Agent SDK serves in its own process, reached
	// over the stream-json control channel; "sse" is not supported.
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// Cwd is the directory a stdio server starts in (default: the
	// project root).
	Cwd     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Tools says how ponder treats the server's tools, by tool name or
	// "*" for all of them (an exact name wins): "readOnly" counts a tool
	// as read-only whatever its annotations say, "write" counts it as one
	// that changes things even when it claims to be read-only, and "deny"
	// keeps it from the model altogether.
	Tools map[string]string `json:"tools,omitempty"`
	// Timeout is how many seconds the server may take to start and list
	// its tools (default 30, or $PONDER_MCP_TIMEOUT in milliseconds).
	Timeout *float64 `json:"timeout,omitempty"`
	// ToolTimeout is how many seconds one call of the server's tools may
	// take before it is cancelled (default 600, or
	// $PONDER_MCP_TOOL_TIMEOUT in milliseconds).
	ToolTimeout *float64 `json:"toolTimeout,omitempty"`
	// Disabled keeps the server from starting.
	Disabled bool `json:"disabled,omitempty"`
}

// The treatments a server's tools can be given (MCPServer.Tools).
const (
	MCPToolReadOnly = "readOnly"
	MCPToolWrite    = "write"
	MCPToolDeny     = "deny"
)

// MCPSource is one MCP server with where it was configured.
type MCPSource struct {
	Name   string
	Server MCPServer
	// From is the file (or "--mcp-config") the definition came from.
	From string
}

// mcpFile is the shape of .mcp.json and of --mcp-config.
type mcpFile struct {
	MCPServers map[string]MCPServer `json:"mcpServers"`
}

// ProjectMCPFile is the project's own list of MCP servers.
const ProjectMCPFile = ".mcp.json"

// ParseMCPConfig reads MCP servers in the {"mcpServers": {...}} shape.
// name says where the text came from, for errors: a file name or
// "--mcp-config". Broken JSON or a value of the wrong type is an error
// naming it; a server that cannot be started as written is not (see
// CheckMCPServer).
func ParseMCPConfig(name string, data []byte) (map[string]MCPServer, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &Error{File: name, Msg: "empty; want {\"mcpServers\": {...}}"}
	}
	var f mcpFile
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&f); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			line, col := position(data, syn.Offset)
			return nil, &Error{File: name, Line: line, Col: col, Msg: "invalid JSON: " + syn.Error()}
		case errors.As(err, &typ):
			line, col := position(data, typ.Offset)
			return nil, &Error{File: name, Line: line, Col: col, Msg: fmt.Sprintf("%q must be %s, not %s", typ.Field, describeType(typ.Type), typ.Value)}
		}
		return nil, &Error{File: name, Msg: "invalid JSON: " + err.Error()}
	}
	if f.MCPServers == nil {
		return nil, &Error{File: name, Msg: "no \"mcpServers\" object; want {\"mcpServers\": {\"name\": {\"command\": ...}}}"}
	}
	return f.MCPServers, nil
}

// CheckMCPServer reports a server definition that cannot work as written.
// Such a server is reported as failed when a session starts, like one
// that crashes; the other servers and the session go on.
func CheckMCPServer(name string, s MCPServer) error {
	if err := CheckMCPName(name); err != nil {
		return err
	}
	switch s.Type {
	case "", "stdio":
		if s.Command == "" {
			if s.URL != "" {
				return fmt.Errorf("has a url but no \"type\": \"http\"")
			}
			return fmt.Errorf("needs a \"command\" (stdio) or \"type\": \"http\" with a \"url\"")
		}
	case "http", "streamable-http":
		if s.URL == "" {
			return fmt.Errorf("an http server needs a \"url\"")
		}
	case "sse":
		return fmt.Errorf("the sse transport is not supported; use \"type\": \"http\" (streamable HTTP)")
	case "sdk":
		// Served by the program that drives ponder through the Claude
		// Agent SDK, over its control channel; mcpclient says when
		// there is none.
		if s.Command != "" || s.URL != "" {
			return fmt.Errorf("a server of type sdk is served by the SDK host and takes no \"command\" or \"url\"")
		}
	default:
		return fmt.Errorf("type must be stdio, http or sdk, not %q", s.Type)
	}
	for tool, how := range s.Tools {
		switch how {
		case MCPToolReadOnly, MCPToolWrite, MCPToolDeny:
		default:
			return fmt.Errorf("tools.%s must be %s, %s or %s, not %q", tool, MCPToolReadOnly, MCPToolWrite, MCPToolDeny, how)
		}
	}
	if s.Timeout != nil && (*s.Timeout <= 0 || *s.Timeout > 600) {
		return fmt.Errorf("timeout must be between 0 and 600 seconds")
	}
	if s.ToolTimeout != nil && (*s.ToolTimeout <= 0 || *s.ToolTimeout > 86400) {
		return fmt.Errorf("toolTimeout must be between 0 and 86400 seconds")
	}
	return nil
}

// CheckMCPName reports a server name that cannot be part of tool names
// (mcp__<server>__<tool>): only letters, digits, '-' and '_' may appear,
// and never "__", which separates the server from the tool, so that a
// rule for one server can never be read as a rule for another.
func CheckMCPName(name string) error {
	if name == "" {
		return fmt.Errorf("a server needs a name")
	}
	if len(name) > 40 {
		return fmt.Errorf("server name %q is longer than 40 characters", name)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return fmt.Errorf("server name %q may hold only letters, digits, '-' and '_'", name)
		}
	}
	if strings.Contains(name, "__") || strings.HasPrefix(name, "_") || strings.HasSuffix(name, "_") {
		return fmt.Errorf("server name %q may not start or end with '_' nor hold \"__\"", name)
	}
	return nil
}

// MCPConfigArg reads one --mcp-config value: a JSON object, or the name
// of a file holding one.
func MCPConfigArg(arg string) (map[string]MCPServer, error) {
	if strings.HasPrefix(strings.TrimSpace(arg), "{") {
		return ParseMCPConfig("--mcp-config", []byte(arg))
	}
	data, err := smallfile.Read(arg, maxSettingsSize)
	if err != nil {
		return nil, fmt.Errorf("--mcp-config: %w", err)
	}
	return ParseMCPConfig(arg, data)
}

// readProjectMCP reads the project's .mcp.json, if any, as a settings
// layer of its own, so that it is narrowed away, and listed in the trust
// notice, for a folder the user has not trusted.
func readProjectMCP(projectDir string) (*Layer, error) {
	if projectDir == "" {
		return nil, nil
	}
	path := filepath.Join(projectDir, ProjectMCPFile)
	// A repository's file: only a regular one, read without blocking and
	// within the settings' bound.
	data, err := smallfile.Read(path, maxSettingsSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	servers, err := ParseMCPConfig(path, data)
	if err != nil {
		return nil, err
	}
	return &Layer{File: path, Scope: ScopeProject, Settings: Settings{MCPServers: servers}, Root: projectDir}, nil
}

// MCPServers lists the servers the settings name, each with the file it
// came from (a later file's definition of a name replaces an earlier
// one's), sorted by name. Untrusted projects' layers are narrowed already
// and name none.
//
// An entry of the user's that has only marks (no command, url or type)
// defines nothing: it marks the tools of the server of that name defined
// elsewhere (see mcpmarks.go).
func (c *Config) MCPServers() []MCPSource {
	byName := map[string]MCPSource{}
	for _, l := range c.Layers {
		for name, s := range l.Settings.MCPServers {
			if l.Scope == ScopeUser && marksOnly(s) {
				continue
			}
			byName[name] = MCPSource{Name: name, Server: s, From: l.File}
		}
	}
	c.applyUserMarks(byName)
	out := make([]MCPSource, 0, len(byName))
	for _, n := range sortedKeys(byName) {
		out = append(out, byName[n])
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ExpandEnv replaces ${NAME} and ${NAME:-default} in s with the
// variable's value from getenv. ponder's own model credentials expand to
// nothing: a server definition must not carry them off. An unset
// variable without a default is an error naming it.
func ExpandEnv(s string, getenv func(string) string, credential func(string) bool) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		b.WriteString(s[:i])
		expr := s[i+2 : i+j]
		name, def, hasDef := strings.Cut(expr, ":-")
		val := ""
		if credential == nil || !credential(name) {
			val = getenv(name)
		} else {
			return "", fmt.Errorf("${%s} is one of ponder's own credentials and is not passed to MCP servers", name)
		}
		if val == "" {
			if !hasDef {
				return "", fmt.Errorf("${%s} is not set", name)
			}
			val = def
		}
		b.WriteString(val)
		s = s[i+j+1:]
	}
}
