package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// TestTeamKeyHiddenFromModel: the key a lead signs its answers with is in
// the config directory, which commands may otherwise read. A lead in plan
// mode whose model tries the file tools and confined commands on it, by
// name or by walking the directory, never gets it, so it cannot sign an
// approval for a teammate.
func TestTeamKeyHiddenFromModel(t *testing.T) {
	haveSandbox(t, "landlock")
	const leadTask = "KEY LEAD: read the team key"
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		teams := filepath.Join(w.cfg, "teams")
		key := filepath.Join(teams, "core", "team.key")
		lines := []string{
			"cat " + key, "grep -r . " + teams, "find " + teams + " -type f -exec cat {} +",
			"tar -cf - -C " + w.cfg + " teams | tar -xOf -", "base64 " + key, "head -c 200 " + key,
		}
		cs := []fakemodel.ToolCall{
			{Name: "Read", Input: map[string]any{"file_path": key}},
			{Name: "Grep", Input: map[string]any{"pattern": ".", "path": teams}},
		}
		for _, l := range lines {
			cs = append(cs, bashCall(l))
		}
		w.srv.Add(
			fakemodel.Reply{Name: "lead reads the key", When: fakemodel.Match{FirstUser: leadTask, LastUser: leadTask}, ToolCalls: cs},
			fakemodel.Reply{Name: "lead done", When: fakemodel.Match{FirstUser: leadTask}, Text: "done", Times: -1},
		)
		out := w.mustRun(0, "", "-p", "--team", "core", "--permission-mode", "plan", "--output-format", "stream-json", leadTask)
		data, err := os.ReadFile(key)
		if err != nil {
			t.Fatalf("the lead made no team key: %v", err)
		}
		secret := strings.TrimSpace(string(data))
		if len(secret) != 64 {
			t.Fatalf("team key %q", secret)
		}
		if n := len(resultsOf(w, leadTask)); n != len(cs) {
			t.Fatalf("the model saw %d results; want %d\n%s", n, len(cs), out.stdout)
		}
		for _, r := range w.srv.Requests() {
			if strings.Contains(string(r.Body), secret[:16]) {
				t.Fatalf("the team key reached the model: %+v", resultsOf(w, leadTask))
			}
		}
	})
}
