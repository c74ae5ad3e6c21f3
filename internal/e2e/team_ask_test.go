package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// A teammate in its lead's process that works in default mode asks its
// lead's user before it writes, named as the teammate: in the lead's
// interface and from a stream-json host.

func teammateWriteScript(leadTask, bobTask string) []fakemodel.Reply {
	return teammateWriteScriptIn(leadTask, bobTask, false)
}

func teammateWriteScriptIn(leadTask, bobTask string, process bool) []fakemodel.Reply {
	lead := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = leadTask; return m }
	bob := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = bobTask; return m }
	return []fakemodel.Reply{
		{Name: "lead starts bob", When: lead(fakemodel.Match{LastUser: leadTask}), ToolCalls: tools(
			call{Name: "SpawnTeammate", Input: map[string]any{"name": "bob", "prompt": bobTask, "process": process}})},
		{Name: "lead waits", When: lead(fakemodel.Match{ToolResult: "Teammate bob started"}), Text: "LEADTEXT bob is at work."},
		{Name: "lead notes", When: lead(fakemodel.Match{LastUser: "is idle"}), Text: "LEADTEXT noted.", Times: -1},
		{Name: "bob writes", When: bob(fakemodel.Match{LastUser: bobTask}), ToolCalls: tools(
			call{Name: "Write", Input: map[string]any{"file_path": "note.txt", "content": "from bob\n"}})},
		{Name: "bob refused", When: bob(fakemodel.Match{ToolResult: "nobody can give it"}), Text: "BOBTEXT could not write."},
		{Name: "bob done", When: bob(fakemodel.Match{ToolResult: "note.txt"}), Text: "BOBTEXT wrote the note."},
	}
}

func TestInterfaceTeammateAsksTheLeadBeforeItWrites(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		const leadTask, bobTask = "LEAD ASK: start bob", "BOB ASK TASK: write the note"
		w := newWorld(t, api, teammateWriteScript(leadTask, bobTask)...)
		term := w.terminal("--team", "core")
		term.waitFor("the status bar", func(s string) bool { return strings.Contains(statusLine(s), "default") })
		term.typeText(leadTask)
		term.send("Enter")
		s := term.waitText("Allow this change by bob?")
		if !strings.Contains(s, "Write note.txt") || !strings.Contains(s, "+from bob") {
			t.Fatalf("bob's question:\n%s", s)
		}
		if w.read("note.txt") != "<missing>" {
			t.Fatal("bob wrote before the lead's user said yes")
		}
		term.send("Enter")
		term.waitFor("bob idle", func(s string) bool { return strings.Contains(s, "Teammate bob: idle") })
		if w.read("note.txt") != "from bob\n" {
			t.Fatalf("note.txt = %q", w.read("note.txt"))
		}
		term.quit()
	})
}

func TestStreamJSONHostAnswersATeammatesQuestion(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		const leadTask, bobTask = "LEAD HOST: start bob", "BOB HOST TASK: write the note"
		w := newWorld(t, api, teammateWriteScript(leadTask, bobTask)...)
		s := w.start("--team", "core")
		s.say(leadTask)
		req := s.control("can_use_tool")
		body := req["request"].(map[string]any)
		if body["agent_id"] != "teammate:bob" || body["tool_name"] != "Write" {
			t.Fatalf("the host's question: %v", body)
		}
		s.answer(req, map[string]any{"behavior": "allow"})
		s.next("bob idle", func(m map[string]any) bool {
			return m["event"] == "teammate_state" && m["name"] == "bob" && m["state"] == "idle"
		})
		if w.read("note.txt") != "from bob\n" {
			t.Fatalf("note.txt = %q", w.read("note.txt"))
		}
		s.close()
	})
}

// A stream-json host sends a teammate's plan back with feedback, and the
// teammate's model gets the feedback; the request names the team's
// request id.
func TestStreamJSONHostRejectsATeammatesPlanWithFeedback(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		const leadTask, aliceTask = "LEAD REJECT: start alice", "ALICE REJECT TASK: plan the note"
		lead := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = leadTask; return m }
		alice := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = aliceTask; return m }
		w := newWorld(t, api,
			fakemodel.Reply{Name: "lead starts alice", When: lead(fakemodel.Match{LastUser: leadTask}), ToolCalls: tools(
				call{Name: "SpawnTeammate", Input: map[string]any{"name": "alice", "prompt": aliceTask, "plan_mode_required": true}})},
			fakemodel.Reply{Name: "lead done", When: lead(fakemodel.Match{}), Text: "LEADTEXT waiting.", Times: -1},
			fakemodel.Reply{Name: "alice plans", When: alice(fakemodel.Match{LastUser: aliceTask}), ToolCalls: []fakemodel.ToolCall{
				{Name: "Write", InputFunc: func(r *fakemodel.Request) any {
					return map[string]any{"file_path": planPath(r), "content": "# alice plan\n\nWrite note.txt.\n"}
				}}, {Name: "ExitPlanMode", Input: map[string]any{}}}},
			fakemodel.Reply{Name: "alice revises", When: alice(fakemodel.Match{ToolResult: "ALSO A TEST"}), Text: "ALICE will add a test.", Times: -1},
			fakemodel.Reply{Name: "alice idles", When: alice(fakemodel.Match{}), Text: "alice idle", Times: -1},
		)
		s := w.start("--team", "core")
		s.say(leadTask)
		req := s.control("plan_exit")
		body := req["request"].(map[string]any)
		if body["agent_id"] != "teammate:alice" || body["team_request_id"] == nil || body["team_request_id"] == "" {
			t.Fatalf("the host's question: %v", body)
		}
		s.answer(req, map[string]any{"option": "reject", "feedback": "ALSO A TEST"})
		found := false
		for i := 0; i < 200 && !found; i++ {
			s.next("alice's next state", func(m map[string]any) bool { return m["event"] == "teammate_state" && m["name"] == "alice" })
			for _, r := range w.srv.Requests() {
				if strings.Contains(r.FirstUser().Text, aliceTask) && strings.Contains(fmt.Sprint(r.LastUser()), "ALSO A TEST") {
					found = true
				}
			}
		}
		if !found {
			t.Fatal("alice's model never got the feedback")
		}
		s.close()
	})
}

// A teammate process has nobody to say yes: its write is refused, and the
// lead hears why with its idle message rather than only "idle".
func TestTeammateProcessTellsTheLeadWhatWasRefused(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		const leadTask, bobTask = "LEAD PROC: start bob", "BOB PROC TASK: write the note"
		w := newWorld(t, api, teammateWriteScriptIn(leadTask, bobTask, true)...)
		s := w.start("--team", "core")
		s.killAfter(60 * time.Second)
		s.say(leadTask)
		st := s.next("bob idle", func(m map[string]any) bool {
			return m["event"] == "teammate_state" && m["name"] == "bob" && m["state"] == "idle"
		})
		if sum := fmt.Sprint(st["summary"]); !strings.Contains(sum, "1 call was refused") || !strings.Contains(sum, "nobody can give one") {
			t.Fatalf("the lead was told %q", sum)
		}
		if w.read("note.txt") != "<missing>" {
			t.Fatal("bob wrote without a yes")
		}
		s.close()
	})
}
