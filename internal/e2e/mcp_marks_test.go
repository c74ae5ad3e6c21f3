package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ponder's own MCP server (ponder mcp serve) is a real server that makes
// claims: plan and ask say they only read, implement says it is
// destructive. It needs nothing but the binary.
func ponderServer() string {
	return mcpConfig(map[string]any{"pm": map[string]any{"command": ponderBin, "args": []string{"mcp", "serve"}}})
}

// ponder mcp list and /mcp show each tool's claim beside ponder's mark;
// r in /mcp marks a tool read-only in the user's settings, which the next
// listing honours.
func TestMCPClaimsShownAndMarkedFromTheInterface(t *testing.T) {
	w := newWorld(t, "anthropic")
	o := w.mustRun(0, "", "mcp", "list", "--mcp-config", ponderServer())
	for _, want := range []string{"pm: connected", "mcp__pm__ask", "ponder: may change things (asks; not in plan mode)", "server claims: read-only", "server claims: nothing"} {
		if !strings.Contains(o.stdout, want) {
			t.Fatalf("mcp list lacks %q:\n%s", want, o.stdout)
		}
	}

	term := w.terminal("--mcp-config", ponderServer())
	term.waitFor("the status bar", func(s string) bool { return strings.Contains(statusLine(s), "default") })
	term.typeText("/mcp")
	term.send("Enter")
	// The slash menu's own line mentions MCP servers too: wait for the
	// dialog's list.
	s := term.waitText("❯ mcp__pm__ask —")
	if !strings.Contains(s, "❯ mcp__pm__ask — asks; not in plan mode · server says read-only") {
		t.Fatalf("/mcp:\n%s", s)
	}
	term.send("r")
	s = term.waitText("mcp__pm__ask is read-only now")
	if !strings.Contains(s, "❯ mcp__pm__ask — read-only, plan mode too · server says read-only") {
		t.Fatalf("the mark does not hold in the session:\n%s", s)
	}
	data, err := os.ReadFile(filepath.Join(w.cfg, "settings.json"))
	if err != nil || !strings.Contains(strings.Join(strings.Fields(string(data)), " "), `"pm": { "tools": { "ask": "readOnly" } }`) {
		t.Fatalf("user settings: %s (%v)", data, err)
	}
	term.send("Escape")

	o = w.mustRun(0, "", "mcp", "list", "--mcp-config", ponderServer())
	if !strings.Contains(o.stdout, "mcp__pm__ask") || !strings.Contains(strings.Split(o.stdout[strings.Index(o.stdout, "mcp__pm__ask"):], "\n")[0], "ponder: read-only") {
		t.Fatalf("the next listing does not honour the mark:\n%s", o.stdout)
	}
}
