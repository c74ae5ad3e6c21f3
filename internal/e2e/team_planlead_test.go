package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// memberRecord reads a teammate's record from the config directory.
func memberRecord(t *testing.T, cfg, name string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(cfg, "teams", "core", "members", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestTeamPlanLeadHoldsRunningTeammate: a teammate started by hand in
// acceptEdits is idle when a lead in plan mode starts. The lead's model
// asks it to write; the message is refused with the reason, the teammate
// is told the lead's mode (a mode_limit message) and works in default
// mode from then on, and nothing in the project changes.
func TestTeamPlanLeadHoldsRunningTeammate(t *testing.T) {
	const (
		mateTask = "HELD MATE TASK: wait for the lead"
		leadTask = "HELD LEAD IN PLAN: get alice to write"
		writeNow = "WRITE-NOW please"
	)
	forAPIs(t, func(t *testing.T, api string) {
		mate := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = mateTask; return m }
		lead := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = leadTask; return m }
		w := newWorld(t, api,
			fakemodel.Reply{Name: "alice writes", When: mate(fakemodel.Match{LastUser: writeNow}), ToolCalls: []fakemodel.ToolCall{writeCall("by_alice.txt", "pwned\n")}, Times: -1},
			fakemodel.Reply{Name: "alice idles", When: mate(fakemodel.Match{}), Text: "idle", Times: -1},
			fakemodel.Reply{Name: "lead sends", When: lead(fakemodel.Match{LastUser: leadTask}), ToolCalls: tools(
				call{Name: "SendMessage", Input: map[string]any{"to": "alice", "message": writeNow}})},
			fakemodel.Reply{Name: "lead done", When: lead(fakemodel.Match{}), Text: "lead done", Times: -1},
		)
		alice := startTeammate(w, w.cfg, "--team", "core", "--name", "alice", "--permission-mode", "acceptEdits", mateTask)
		alice.killAfter(60 * time.Second)
		alice.next("alice idle", isEvent("teammate_state", map[string]any{"state": "idle"}))

		out := w.mustRun(0, "", "-p", "--team", "core", "--permission-mode", "plan", "--output-format", "stream-json", leadTask)
		if !sawResult(w, leadTask, "not sent: you are in plan mode", true) {
			t.Errorf("the planning lead's message to an acceptEdits teammate was not refused: %+v\n%s", resultsOf(w, leadTask), out.stdout)
		}
		alice.next("alice held", func(m map[string]any) bool {
			return m["event"] == "notice" && strings.Contains(fmt.Sprint(m["text"]), "works in default at most")
		})
		if rec := memberRecord(t, w.cfg, "alice"); rec["mode"] != "default" {
			t.Errorf("alice's record says mode %v; want default", rec["mode"])
		}
		if got := w.read("by_alice.txt"); got != "<missing>" {
			t.Errorf("by_alice.txt = %q: a lead in plan mode changed a file through its teammate", got)
		}
		for _, r := range w.srv.Requests() {
			if strings.Contains(r.LastUser().Text, writeNow) {
				t.Errorf("alice's model read the planning lead's message")
			}
		}
	})
}

// TestTeamJoinerTakesPlanningLeadsMode: a lead runs in plan mode; a
// teammate started by hand afterwards in acceptEdits takes the lead's
// limit before its first turn: it announces default mode and its write
// is refused as needing approval.
func TestTeamJoinerTakesPlanningLeadsMode(t *testing.T) {
	const (
		leadTask = "JOIN LEAD IN PLAN: hello"
		mateTask = "JOINER TASK: create joined.txt"
	)
	forAPIs(t, func(t *testing.T, api string) {
		mate := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = mateTask; return m }
		w := newWorld(t, api,
			fakemodel.Reply{Name: "lead hello", When: fakemodel.Match{FirstUser: leadTask}, Text: "planning", Times: -1},
			fakemodel.Reply{Name: "joiner writes", When: mate(fakemodel.Match{LastUser: mateTask}), ToolCalls: []fakemodel.ToolCall{writeCall("joined.txt", "unasked\n")}},
			fakemodel.Reply{Name: "joiner gives up", When: mate(fakemodel.Match{ToolResult: "joined.txt"}), Text: "could not write"},
		)
		host := w.start("--team", "core", "--permission-mode", "plan")
		host.killAfter(60 * time.Second)
		host.say(leadTask)
		host.result()

		joiner := startTeammate(w, w.cfg, "--team", "core", "--name", "joe", "--permission-mode", "acceptEdits", mateTask)
		joiner.killAfter(60 * time.Second)
		init := joiner.next("init", func(m map[string]any) bool { return m["subtype"] == "init" })
		if init["permissionMode"] != "default" {
			t.Errorf("a teammate joining a planning lead announced %v; want default", init["permissionMode"])
		}
		joiner.next("joiner idle", isEvent("teammate_state", map[string]any{"state": "idle"}))
		if got := w.read("joined.txt"); got != "<missing>" {
			t.Errorf("joined.txt = %q: a teammate joining a planning lead wrote unasked", got)
		}
		if !sawResult(w, mateTask, "needs approval", true) {
			t.Errorf("the joiner's write was not refused as needing approval: %+v", resultsOf(w, mateTask))
		}
		host.close()
	})
}

// TestTeamPlanLeadNoRelay: while the lead plans, a teammate that plans
// cannot pass the lead's wish on to one that may write. alice, started
// by hand, may Write by a rule of her own command line (and is held to
// default mode by the planning lead); bob, the lead's planning teammate,
// asks her to write: the message is refused, and nothing is written.
func TestTeamPlanLeadNoRelay(t *testing.T) {
	const (
		mateTask = "RELAY ALICE: wait"
		leadTask = "RELAY LEAD IN PLAN: get bob going"
		bobTask  = "RELAY BOB: ask alice"
		relay    = "RELAY-WRITE please"
	)
	forAPIs(t, func(t *testing.T, api string) {
		alice := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = mateTask; return m }
		bob := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = bobTask; return m }
		lead := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = leadTask; return m }
		w := newWorld(t, api,
			fakemodel.Reply{Name: "alice writes", When: alice(fakemodel.Match{LastUser: relay}), ToolCalls: []fakemodel.ToolCall{writeCall("relayed.txt", "pwned\n")}, Times: -1},
			fakemodel.Reply{Name: "alice idles", When: alice(fakemodel.Match{}), Text: "idle", Times: -1},
			fakemodel.Reply{Name: "lead starts bob", When: lead(fakemodel.Match{LastUser: leadTask}), ToolCalls: tools(
				call{Name: "SpawnTeammate", Input: map[string]any{"name": "bob", "prompt": bobTask, "plan_mode_required": true}})},
			fakemodel.Reply{Name: "lead done", When: lead(fakemodel.Match{}), Text: "lead done", Times: -1},
			fakemodel.Reply{Name: "bob relays", When: bob(fakemodel.Match{LastUser: bobTask}), ToolCalls: tools(
				call{Name: "SendMessage", Input: map[string]any{"to": "alice", "message": relay}})},
			fakemodel.Reply{Name: "bob done", When: bob(fakemodel.Match{}), Text: "bob done", Times: -1},
		)
		mate := startTeammate(w, w.cfg, "--team", "core", "--name", "alice", "--permission-mode", "acceptEdits", "--allowedTools", "Write", mateTask)
		mate.killAfter(60 * time.Second)
		mate.next("alice idle", isEvent("teammate_state", map[string]any{"state": "idle"}))

		w.mustRun(0, "", "-p", "--team", "core", "--permission-mode", "plan", "--output-format", "stream-json", leadTask)
		if !sawResult(w, bobTask, "not sent: your lead is in plan mode", true) {
			t.Errorf("bob's message to alice was not refused: %+v", resultsOf(w, bobTask))
		}
		if got := w.read("relayed.txt"); got != "<missing>" {
			t.Errorf("relayed.txt = %q: a planning lead's teammate made another write", got)
		}
		for _, r := range w.srv.Requests() {
			if strings.Contains(r.LastUser().Text, relay) {
				t.Errorf("alice's model read bob's message")
			}
		}
	})
}

// TestTeamPlanLeadKeepsTeammatePlanning: a teammate started by hand in
// plan mode, free to Write by a rule of its own, is messaged by a lead in
// plan mode (which it may be: it plans). Its ExitPlanMode does not let
// it out on its own word while the lead plans: the plan goes to the lead
// (whose host is asked), and nothing is written.
func TestTeamPlanLeadKeepsTeammatePlanning(t *testing.T) {
	const (
		leadTask = "KEEP LEAD IN PLAN: ask carl"
		mateTask = "KEEP CARL: plan"
		doIt     = "EXIT-AND-WRITE now"
	)
	forAPIs(t, func(t *testing.T, api string) {
		carl := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = mateTask; return m }
		lead := func(m fakemodel.Match) fakemodel.Match { m.HasTool = "SpawnTeammate"; return m }
		w := newWorld(t, api,
			fakemodel.Reply{Name: "carl leaves plan mode", When: carl(fakemodel.Match{LastUser: doIt}), ToolCalls: []fakemodel.ToolCall{
				{Name: "Write", InputFunc: func(r *fakemodel.Request) any {
					return map[string]any{"file_path": planPath(r), "content": "# carl plan\n\nWrite carl.txt.\n"}
				}}, {Name: "ExitPlanMode", Input: map[string]any{}}}},
			fakemodel.Reply{Name: "carl writes", When: carl(fakemodel.Match{ToolResult: "plan"}), ToolCalls: []fakemodel.ToolCall{writeCall("carl.txt", "pwned\n")}, Times: -1},
			fakemodel.Reply{Name: "carl idles", When: carl(fakemodel.Match{}), Text: "idle", Times: -1},
			fakemodel.Reply{Name: "lead asks carl", When: lead(fakemodel.Match{LastUser: leadTask}), ToolCalls: tools(
				call{Name: "SendMessage", Input: map[string]any{"to": "carl", "message": doIt}})},
			fakemodel.Reply{Name: "lead done", When: lead(fakemodel.Match{}), Text: "lead done", Times: -1},
		)
		host := w.start("--team", "core", "--permission-mode", "plan")
		host.killAfter(60 * time.Second)
		host.say("KEEP HELLO")
		host.result()
		mate := startTeammate(w, w.cfg, "--team", "core", "--name", "carl", "--permission-mode", "plan", "--allowedTools", "Write", mateTask)
		mate.killAfter(60 * time.Second)
		mate.next("carl idle", isEvent("teammate_state", map[string]any{"state": "idle"}))

		host.say(leadTask)
		req := host.control("plan_exit")
		if r, _ := req["request"].(map[string]any); r["agent_id"] != "teammate:carl" || r["team_request_id"] == nil || r["team_request_id"] == "" {
			t.Fatalf("the host was asked %v; want carl's plan", r)
		}
		mate.next("carl waiting", isEvent("teammate_state", map[string]any{"state": "awaiting_approval"}))
		if got := w.read("carl.txt"); got != "<missing>" {
			t.Errorf("carl.txt = %q: a teammate left plan mode on its own while its lead planned", got)
		}
		host.close()
	})
}

// TestTeamPlanningTeammateNoRelay: a teammate that must plan first
// cannot have a peer that may write act for it, even while the lead
// itself does not plan: its message is refused and nothing is written.
func TestTeamPlanningTeammateNoRelay(t *testing.T) {
	const (
		leadTask  = "PEER LEAD: start both"
		aliceTask = "PEER ALICE: plan, and ask bob"
		bobTask   = "PEER BOB: do what alice asks"
		relay     = "PEER-WRITE please"
	)
	forAPIs(t, func(t *testing.T, api string) {
		alice := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = aliceTask; return m }
		bob := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = bobTask; return m }
		lead := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = leadTask; return m }
		w := newWorld(t, api,
			fakemodel.Reply{Name: "lead starts both", When: lead(fakemodel.Match{LastUser: leadTask}), ToolCalls: tools(
				call{Name: "SpawnTeammate", Input: map[string]any{"name": "bob", "prompt": bobTask, "mode": "acceptEdits"}},
				call{Name: "SpawnTeammate", Input: map[string]any{"name": "alice", "prompt": aliceTask, "plan_mode_required": true}})},
			fakemodel.Reply{Name: "lead done", When: lead(fakemodel.Match{}), Text: "lead done", Times: -1},
			fakemodel.Reply{Name: "alice relays", When: alice(fakemodel.Match{LastUser: aliceTask}), ToolCalls: tools(
				call{Name: "SendMessage", Input: map[string]any{"to": "bob", "message": relay}})},
			fakemodel.Reply{Name: "alice done", When: alice(fakemodel.Match{}), Text: "alice done", Times: -1},
			fakemodel.Reply{Name: "bob writes", When: bob(fakemodel.Match{LastUser: relay}), ToolCalls: []fakemodel.ToolCall{writeCall("relayed.txt", "pwned\n")}, Times: -1},
			fakemodel.Reply{Name: "bob idles", When: bob(fakemodel.Match{}), Text: "bob idle", Times: -1},
		)
		w.mustRun(0, "", "-p", "--team", "core", "--permission-mode", "acceptEdits", "--output-format", "stream-json", leadTask)
		if !sawResult(w, aliceTask, "not sent: you are in plan mode", true) {
			t.Errorf("alice's message to bob was not refused: %+v", resultsOf(w, aliceTask))
		}
		if got := w.read("relayed.txt"); got != "<missing>" {
			t.Errorf("relayed.txt = %q: a teammate that must plan had another write", got)
		}
	})
}
