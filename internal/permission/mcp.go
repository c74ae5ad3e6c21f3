package permission

import "strings"

// MCP tools are named mcp__<server>__<tool>, where a server's name never
// holds "__" (config.CheckMCPName), so the server is what lies between the
// first two separators. A rule may name one tool, every tool of a server
// ("mcp__github" or "mcp__github__*"), or the tools of a server whose
// names start alike ("mcp__github__list_*").

// mcpCovers reports whether a rule's tool name covers the MCP tool named
// tool, by server or by a trailing '*'. Exact names are compared by the
// caller.
func mcpCovers(rule, tool string) bool {
	if !strings.HasPrefix(rule, "mcp__") || !strings.HasPrefix(tool, "mcp__") {
		return false
	}
	server, rest, hasTool := strings.Cut(strings.TrimPrefix(rule, "mcp__"), "__")
	toolServer, toolName, ok := strings.Cut(strings.TrimPrefix(tool, "mcp__"), "__")
	if !ok || server != toolServer || server == "" || strings.Contains(server, "*") {
		return false
	}
	if !hasTool {
		return true // mcp__github: every tool of the server
	}
	prefix, star := strings.CutSuffix(rest, "*")
	return star && !strings.Contains(prefix, "*") && strings.HasPrefix(toolName, prefix)
}
