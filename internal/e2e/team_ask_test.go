package e2e

import (
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// A teammate in its lead's process that works in default mode asks its
// lead's user before it writes, named as the teammate: in the lead's
// interface and from a stream-json host.

func teammateWriteScript(leadTask, bobTask string) []fakemodel.Reply {
	lead := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = leadTask; return m }
	bob := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = bobTask; return m }
	return []fakemodel.Reply{
		{Name: "lead starts bob", When: lead(fakemodel.Match{LastUser: leadTask}), ToolCalls: tools(
			call{Name: "SpawnTeammate", Input: map[string]any{"name": "bob", "prompt": bobTask}})},
		{Name: "lead waits", When: lead(fakemodel.Match{ToolResult: "Teammate bob started"}), Text: "LEADTEXT bob is at work."},
		{Name: "lead notes", When: lead(fakemodel.Match{LastUser: "is idle"}), Text: "LEADTEXT noted.", Times: -1},
		{Name: "bob writes", When: bob(fakemodel.Match{LastUser: bobTask}), ToolCalls: tools(
			call{Name: "Write", Input: map[string]any{"file_path": "note.txt", "content": "from bob\n"}})},
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
