//lint:file-ignore SA1019 the test checks the log level of the protocol version clients use today
package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// A client that never sets a log level gets ponder's progress at info;
// one that sets a level gets what that level lets through.
func TestLogNotificationsAtInfoUntilTheClientSetsALevel(t *testing.T) {
	for _, c := range []struct {
		level           mcp.LoggingLevel
		info, debugSeen bool
	}{{"", true, false}, {"warning", false, false}, {"debug", true, true}} {
		t.Run(string(c.level), func(t *testing.T) {
			prov := fakemodel.NewProvider(fakemodel.Script{Replies: []fakemodel.Reply{{Text: "It prints hello."}}})
			base := t.TempDir()
			dir := filepath.Join(base, "project")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			cs, n := connectAt(t, app.Options{Dir: dir, ConfigDir: filepath.Join(base, "config"), LLM: prov, Getenv: func(string) string { return "" }}, c.level)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"question": "what does it print?"}})
			if err != nil || res.IsError {
				t.Fatalf("ask: %+v %v", res, err)
			}
			if c.info && !n.wait("turn_finished") {
				t.Errorf("no info notification: %v", n.events)
			}
			if !c.info && n.seen("turn_finished") {
				t.Errorf("an info notification below the level set: %v", n.events)
			}
			if got := n.seen("assistant"); got != c.debugSeen {
				t.Errorf("debug notification seen %v, want %v: %v", got, c.debugSeen, n.events)
			}
		})
	}
}
