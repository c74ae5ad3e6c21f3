package tui

import (
	"fmt"
	"strings"

	"github.com/ponder-agent/ponder/event"
)

// mcpText describes the session's MCP servers for /mcp: each server's
// state (and why it failed), and each tool with whether plan mode may use
// it.
func mcpText(servers []event.MCPServer) string {
	if len(servers) == 0 {
		return "No MCP servers. Add them under mcpServers in your settings, in a trusted project's .mcp.json, or with --mcp-config."
	}
	var b strings.Builder
	for i, s := range servers {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s: %s (%s, from %s)\n", s.Name, s.Status, s.Transport, s.From)
		if s.Error != "" {
			fmt.Fprintf(&b, "  %s\n", s.Error)
		}
		for _, t := range s.Tools {
			name := t.Name
			if name == "" {
				name = t.Remote
			}
			switch {
			case t.Skipped != "":
				fmt.Fprintf(&b, "  %s — not offered: %s\n", name, t.Skipped)
			case t.ReadOnly:
				fmt.Fprintf(&b, "  %s — read-only, also in plan mode\n", name)
			default:
				fmt.Fprintf(&b, "  %s — may change things: asks first, never in plan mode\n", name)
			}
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
