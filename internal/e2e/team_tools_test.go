package e2e

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/team/mailbox"
)

// TestTeamTeammateHasOnlyLeadsTools: a lead limited with --tools to
// reading and its team tools starts a teammate in acceptEdits, in its
// process and as a process. The teammate is offered no tool its lead
// lacks, its Write is refused and nothing is written; a teammate process
// started again by hand without --tools keeps the lead's list from its
// record.
func TestTeamTeammateHasOnlyLeadsTools(t *testing.T) {
	const (
		leadTask = "TOOLS LEAD: start alice"
		mateTask = "TOOLS ALICE: create alice.txt"
		again    = "TOOLS ALICE AGAIN: create again.txt"
		noWrite  = `no tool named "Write"`
	)
	for _, process := range []bool{false, true} {
		t.Run(teamModeName[process], func(t *testing.T) {
			forAPIs(t, func(t *testing.T, api string) {
				lead := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = leadTask; return m }
				alice := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = mateTask; return m }
				w := newWorld(t, api,
					fakemodel.Reply{Name: "lead starts alice", When: lead(fakemodel.Match{LastUser: leadTask}), ToolCalls: tools(
						call{Name: "SpawnTeammate", Input: map[string]any{"name": "alice", "prompt": mateTask, "mode": "acceptEdits", "process": process}})},
					fakemodel.Reply{Name: "lead waits", When: lead(fakemodel.Match{}), Text: "waiting", Times: -1},
					fakemodel.Reply{Name: "alice writes", When: alice(fakemodel.Match{LastUser: mateTask}), ToolCalls: []fakemodel.ToolCall{writeCall("alice.txt", "pwned\n")}},
					fakemodel.Reply{Name: "alice writes again", When: alice(fakemodel.Match{LastUser: again}), ToolCalls: []fakemodel.ToolCall{writeCall("again.txt", "pwned\n")}},
					fakemodel.Reply{Name: "alice gives up", When: alice(fakemodel.Match{}), Text: "could not write", Times: -1},
				)
				out := w.mustRun(0, "", "-p", "--team", "core", "--permission-mode", "acceptEdits",
					"--tools", "Read,Grep,SpawnTeammate,SendMessage", "--output-format", "stream-json", leadTask)
				if !sawResult(w, mateTask, noWrite, false) {
					t.Fatalf("alice's Write was not refused: %+v\n%s", resultsOf(w, mateTask), out.stdout)
				}
				if got := w.read("alice.txt"); got != "<missing>" {
					t.Errorf("alice.txt = %q: a teammate used a tool its lead does not have", got)
				}
				offered := 0
				for _, r := range w.srv.Requests() {
					if !strings.Contains(r.FirstUser().Text, mateTask) {
						continue
					}
					offered++
					for _, name := range r.Tools {
						if !slices.Contains([]string{"Read", "Grep", "SendMessage"}, name) {
							t.Errorf("alice was offered %s, which her lead does not have (offered %v)", name, r.Tools)
						}
					}
				}
				if offered == 0 {
					t.Fatal("alice never asked the model")
				}
				if !process {
					return
				}
				if rec := memberRecord(t, w.cfg, "alice"); rec["tools"] == nil {
					t.Errorf("alice's record keeps no tools: %v", rec)
				}
				mate := startTeammate(w, w.cfg, "--team", "core", "--name", "alice", "--permission-mode", "acceptEdits")
				mate.killAfter(60 * time.Second)
				mate.next("init", func(m map[string]any) bool { return m["subtype"] == "init" })
				ctxSend(t, w.cfg, "alice", again)
				mate.next("alice idle", isEvent("teammate_state", map[string]any{"state": "idle"}))
				refused := 0
				for _, tr := range resultsOf(w, mateTask) {
					if strings.Contains(tr.Content, noWrite) {
						refused++
					}
				}
				if refused < 2 {
					t.Errorf("alice's second Write was not refused: %+v", resultsOf(w, mateTask))
				}
				if got := w.read("again.txt"); got != "<missing>" {
					t.Errorf("again.txt = %q: started again by hand, alice got back tools her lead lacked", got)
				}
			})
		})
	}
}

// ctxSend puts a text message from the lead into a teammate's inbox of
// team core, as a lead would send it.
func ctxSend(t *testing.T, cfg, to, text string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	mb, err := mailbox.Open("files", cfg, "core")
	if err != nil {
		t.Fatal(err)
	}
	defer mb.Close()
	msg, err := mailbox.NewMessage("core", "lead", to, mailbox.TypeText, mailbox.Text{Text: text})
	if err != nil {
		t.Fatal(err)
	}
	if err := mb.Send(ctx, msg); err != nil {
		t.Fatal(err)
	}
}
