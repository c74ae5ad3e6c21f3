package tui

import (
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/event"
)

func TestMCPTextSaysWhatPlanModeMayUse(t *testing.T) {
	got := mcpText([]event.MCPServer{
		{Name: "demo", Status: "connected", Transport: "stdio", From: ".mcp.json", Tools: []event.MCPTool{
			{Name: "mcp__demo__lookup", Remote: "lookup", ReadOnly: true},
			{Name: "mcp__demo__stamp", Remote: "stamp"},
			{Name: "mcp__demo__purge", Remote: "purge", Skipped: "denied in the settings"},
		}},
		{Name: "broken", Status: "failed", Error: "exited at once", Transport: "stdio", From: "--mcp-config"},
	})
	for _, want := range []string{
		"demo: connected (stdio, from .mcp.json)",
		"mcp__demo__lookup — read-only, also in plan mode",
		"mcp__demo__stamp — may change things: asks first, never in plan mode",
		"mcp__demo__purge — not offered: denied in the settings",
		"broken: failed", "exited at once",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("/mcp text lacks %q:\n%s", want, got)
		}
	}
	if !strings.Contains(mcpText(nil), "No MCP servers") {
		t.Error("/mcp without servers says nothing useful")
	}
}
