package e2e

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// TestInterfaceSwitchToTeammate: the lead's interface shows a teammate's
// conversation on Shift+Down, with its text and state; what the user
// types there reaches the teammate's model through its inbox, and its
// answer shows; Esc comes back to the lead's conversation. The teammate
// runs in the lead's process (followed live) or as a process of its own
// (followed through its transcript).
func TestInterfaceSwitchToTeammate(t *testing.T) {
	const (
		leadTask = "LEAD VIEW: start bob"
		bobTask  = "BOB VIEW TASK: say hello"
		ping     = "PING from the user"
	)
	for _, process := range []bool{false, true} {
		t.Run(teamModeName[process], func(t *testing.T) {
			lead := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = leadTask; return m }
			bob := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = bobTask; return m }
			w := newWorld(t, "anthropic",
				fakemodel.Reply{Name: "lead starts bob", When: lead(fakemodel.Match{LastUser: leadTask}), ToolCalls: tools(
					call{Name: "SpawnTeammate", Input: map[string]any{"name": "bob", "prompt": bobTask, "process": process}})},
				fakemodel.Reply{Name: "lead waits", When: lead(fakemodel.Match{ToolResult: "Teammate bob started"}), Text: "LEADTEXT bob is at work."},
				fakemodel.Reply{Name: "lead notes", When: lead(fakemodel.Match{LastUser: "is idle"}), Text: "LEADTEXT noted.", Times: -1},
				fakemodel.Reply{Name: "bob says hello", When: bob(fakemodel.Match{LastUser: bobTask}), Text: "BOBTEXT hello from bob"},
				fakemodel.Reply{Name: "bob answers the user", When: bob(fakemodel.Match{LastUser: ping}), Text: "PONG from bob"},
			)
			term := w.terminal("--team", "core")
			term.waitFor("the status bar", func(s string) bool { return strings.Contains(statusLine(s), "default") })
			term.typeText(leadTask)
			term.send("Enter")
			term.waitFor("bob idle", func(s string) bool { return strings.Contains(s, "Teammate bob: idle") })
			term.waitText("shift+↓ teammates")

			// (The lead's screen has bob's last words too, in the notice
			// that it is idle.)
			term.send("S-Down")
			s := term.waitFor("bob's conversation", func(s string) bool {
				return strings.Contains(s, "▸ teammate bob") && strings.Contains(s, "BOBTEXT hello from bob")
			})
			for _, want := range []string{"> " + bobTask, "default", "idle", "Message bob"} {
				if !strings.Contains(s, want) {
					t.Errorf("the teammate view lacks %q:\n%s", want, s)
				}
			}
			if strings.Contains(s, "LEADTEXT") {
				t.Errorf("the teammate view shows the lead's conversation:\n%s", s)
			}

			term.typeText(ping)
			term.send("Enter")
			term.waitText("PONG from bob")
			reached := 0
			for _, r := range w.srv.Requests() {
				if strings.Contains(r.FirstUser().Text, bobTask) && strings.Contains(r.LastUser().Text, ping) &&
					strings.Contains(r.LastUser().Text, `<teammate-message from="lead" type="text">`) {
					reached++
				}
			}
			if reached != 1 {
				t.Errorf("the user's message reached bob's model %d times as a message of the lead; want once", reached)
			}

			term.send("Escape")
			// (The lead hears bob's last words in its idle notice, not
			// its conversation.)
			s = term.waitFor("the lead's conversation", func(s string) bool {
				return strings.Contains(s, "LEADTEXT") && !strings.Contains(s, "▸ teammate bob")
			})
			if strings.Contains(s, "> "+ping) {
				t.Errorf("the lead's conversation shows the message to bob as the lead's input:\n%s", s)
			}
			// Shift+Up goes round the other way, to the last teammate.
			term.send("S-Up")
			term.waitText("▸ teammate bob")
			term.quit()
		})
	}
}

// quit ends ponder with Ctrl+C twice and waits until it has exited, so
// that what it writes as it closes (its team's records) is done before
// the test's directories are removed.
func (term *terminal) quit() {
	term.t.Helper()
	term.send("C-c")
	term.send("C-c")
	deadline := time.Now().Add(20 * time.Second)
	for exec.Command("tmux", "-L", term.socket, "has-session").Run() == nil {
		if time.Now().After(deadline) {
			term.t.Fatalf("ponder did not quit:\n%s", term.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
