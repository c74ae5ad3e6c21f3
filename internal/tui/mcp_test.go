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
		"mcp__demo__lookup — read-only, plan mode too · server says nothing",
		"mcp__demo__stamp — asks; not in plan mode · server says nothing",
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

func TestMCPDialogShowsClaimsAndMarksTheSelectedTool(t *testing.T) {
	f := newFixture(t, false)
	servers := []event.MCPServer{{Name: "demo", Status: "connected", Transport: "stdio", From: ".mcp.json", Tools: []event.MCPTool{
		{Name: "mcp__demo__lookup", Remote: "lookup", ReadOnly: true, Annotated: true},
		{Name: "mcp__demo__search", Remote: "search", Annotated: true},
		{Name: "mcp__demo__stamp", Remote: "stamp"},
		{Name: "mcp__demo__purge", Remote: "purge", Skipped: "denied in the settings"},
	}}}
	d := newMCPDialog(f.m.th, servers)
	f.m.dialogs = append(f.m.dialogs, d)
	f.keys("down")
	s := f.screen()
	golden(t, "mcp-dialog", s)
	for _, want := range []string{
		"mcp__demo__lookup — read-only, plan mode too · server says read-only",
		"❯ mcp__demo__search — asks; not in plan mode · server says read-only",
		"mcp__demo__stamp — asks; not in plan mode · server says nothing",
	} {
		if !strings.Contains(strings.Join(strings.Fields(s), " "), strings.Join(strings.Fields(want), " ")) {
			t.Fatalf("the dialog lacks %q:\n%s", want, s)
		}
	}
	// r asks the app to mark the selected tool; this session has no such
	// server, so the app says so and nothing is written.
	f.keys("r")
	if s := f.screen(); !strings.Contains(s, "Not marked: this session has no MCP tool mcp__demo__search") {
		t.Fatalf("screen:\n%s", s)
	}
}
