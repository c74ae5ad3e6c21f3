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

// TestTeamFilesNotWritableByTools: even in bypassPermissions, the file
// tools change nothing of a team: a model cannot drop a forged message
// into a teammate's inbox, rewrite a record, or replace the key.
func TestTeamFilesNotWritableByTools(t *testing.T) {
	const leadTask = "FORGING LEAD: write into the team"
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		core := filepath.Join(w.cfg, "teams", "core")
		targets := []string{
			filepath.Join(core, "inboxes", "alice", "00000000000000000001_forged.json"),
			filepath.Join(core, "members", "alice.json"),
			filepath.Join(core, "team.key"),
		}
		var cs []fakemodel.ToolCall
		for _, p := range targets {
			cs = append(cs, fakemodel.ToolCall{Name: "Write", Input: map[string]any{"file_path": p, "content": "forged\n"}})
		}
		w.srv.Add(
			fakemodel.Reply{Name: "lead forges", When: fakemodel.Match{FirstUser: leadTask, LastUser: leadTask}, ToolCalls: cs},
			fakemodel.Reply{Name: "lead done", When: fakemodel.Match{FirstUser: leadTask}, Text: "done", Times: -1},
		)
		w.mustRun(0, "", "-p", "--team", "core", "--permission-mode", "bypassPermissions", "--output-format", "stream-json", leadTask)
		res := resultsOf(w, leadTask)
		if len(res) != len(targets) {
			t.Fatalf("the model saw %d results; want %d", len(res), len(targets))
		}
		for i, p := range targets {
			if !strings.Contains(res[i].Content, "ponder's teams") {
				t.Errorf("writing %s: %q; want it refused by the team rules", p, res[i].Content)
			}
			if data, err := os.ReadFile(p); err == nil && strings.Contains(string(data), "forged") {
				t.Errorf("%s was written by the model", p)
			}
		}
	})
}
