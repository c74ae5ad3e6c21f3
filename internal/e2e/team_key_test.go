package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/team/mailbox"
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

// TestTeamNATSTeammateWithoutKey: over NATS only signatures travel, so a
// teammate on another machine (its own config directory) without a copy
// of the lead's key takes no answer at all, even the lead's, and says
// what to copy; it does not make a key of its own that would never match.
func TestTeamNATSTeammateWithoutKey(t *testing.T) {
	const mateTask = "KEYLESS TASK: create keyless.txt"
	forAPIs(t, func(t *testing.T, api string) {
		mate := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = mateTask; return m }
		w := newWorld(t, api,
			fakemodel.Reply{Name: "mate plans", When: mate(fakemodel.Match{LastUser: mateTask}), ToolCalls: []fakemodel.ToolCall{
				{Name: "Write", InputFunc: func(r *fakemodel.Request) any {
					return map[string]any{"file_path": planPath(r), "content": "# keyless plan\n\nWrite keyless.txt.\n"}
				}}, {Name: "ExitPlanMode", Input: map[string]any{}}}},
			fakemodel.Reply{Name: "mate implements", When: mate(fakemodel.Match{ToolResult: "approved your plan"}), ToolCalls: []fakemodel.ToolCall{writeCall("keyless.txt", "written\n")}},
			fakemodel.Reply{Name: "mate done", When: mate(fakemodel.Match{}), Text: "done", Times: -1},
		)
		url := startNATS(t)
		mateCfg := filepath.Join(filepath.Dir(w.cfg), "mate-config")
		mt := startTeammate(w, mateCfg, "--team", "core", "--name", "kim", "--mailbox", url, "--plan-mode-required",
			"--permission-mode", "acceptEdits", "--lead-mode", "acceptEdits", mateTask)
		mt.killAfter(45 * time.Second)
		mt.next("kim waiting", isEvent("teammate_state", map[string]any{"state": "awaiting_approval"}))
		if _, err := os.Stat(filepath.Join(mateCfg, "teams", "core", "team.key")); err == nil {
			t.Error("a teammate over NATS made a team key of its own")
		}

		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		mb, err := mailbox.Open(url, w.cfg, "core")
		if err != nil {
			t.Fatal(err)
		}
		defer mb.Close()
		d, err := mb.Receive(ctx, "lead")
		if err != nil {
			t.Fatal(err)
		}
		req, err := d.Message().PlanApprovalRequest()
		if err != nil {
			t.Fatal(err)
		}
		d.Ack(ctx)
		// Signed with the key in the lead's config directory.
		answer := leadAnswer(t, w.cfg, "kim", mailbox.PlanApprovalResponse{RequestID: req.RequestID, Approved: true, Mode: "acceptEdits"})
		if err := mb.Send(ctx, answer); err != nil {
			t.Fatal(err)
		}
		mt.next("the answer ignored", func(m map[string]any) bool {
			text := fmt.Sprint(m["text"])
			return m["event"] == "notice" && strings.Contains(text, "was ignored") && strings.Contains(text, "copy it from the lead's config directory")
		})
		if got := w.read("keyless.txt"); got != "<missing>" {
			t.Errorf("keyless.txt = %q: a teammate without the key took an answer", got)
		}
	})
}
