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

// resultsOf gathers the tool results the model saw in the conversations
// whose first user message holds first.
func resultsOf(w *world, first string) []fakemodel.ToolResult {
	var out []fakemodel.ToolResult
	for _, r := range w.srv.Requests() {
		if strings.Contains(r.FirstUser().Text, first) {
			out = append(out, toolResults(r)...)
		}
	}
	return out
}

// sawResult reports whether a conversation saw a tool result holding
// text; errorOnly counts only results that are errors.
func sawResult(w *world, first, text string, errorOnly bool) bool {
	for _, tr := range resultsOf(w, first) {
		if strings.Contains(tr.Content, text) && (!errorOnly || failed(tr)) {
			return true
		}
	}
	return false
}

// teamModeName names the subtests of a teammate in the lead's process and
// of a teammate process.
var teamModeName = map[bool]string{false: "in-process", true: "process"}

// TestTeamTeammateNeverFreerThanLead: a headless lead in default mode,
// whose own writes nobody may approve, asks for a teammate in acceptEdits
// and one in bypassPermissions. The first works in default mode instead,
// so its write is refused like the lead's own; the second is not started.
// The lead's model is told both plainly.
func TestTeamTeammateNeverFreerThanLead(t *testing.T) {
	const (
		leadTask = "STRICT LEAD: start helpers"
		eveTask  = "EVE TASK: create eve.txt"
	)
	for _, process := range []bool{false, true} {
		t.Run(teamModeName[process], func(t *testing.T) {
			forAPIs(t, func(t *testing.T, api string) {
				lead := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = leadTask; return m }
				eve := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = eveTask; return m }
				w := newWorld(t, api,
					fakemodel.Reply{Name: "lead starts helpers", When: lead(fakemodel.Match{LastUser: leadTask}), ToolCalls: tools(
						call{Name: "SpawnTeammate", Input: map[string]any{"name": "eve", "prompt": eveTask, "mode": "acceptEdits", "process": process}},
						call{Name: "SpawnTeammate", Input: map[string]any{"name": "mal", "prompt": "MAL TASK", "mode": "bypassPermissions", "process": process}})},
					fakemodel.Reply{Name: "lead waits", When: lead(fakemodel.Match{ToolResult: "Teammate eve started"}), Text: "The team is at work."},
					fakemodel.Reply{Name: "lead notes", When: lead(fakemodel.Match{LastUser: "is idle"}), Text: "Noted.", Times: -1},
					fakemodel.Reply{Name: "eve writes", When: eve(fakemodel.Match{LastUser: eveTask}), ToolCalls: []fakemodel.ToolCall{writeCall("eve.txt", "unasked\n")}},
					fakemodel.Reply{Name: "eve gives up", When: eve(fakemodel.Match{ToolResult: "eve.txt"}), Text: "eve could not write"},
				)
				out := w.mustRun(0, "", "-p", "--team", "core", "--permission-mode", "default", "--output-format", "stream-json", leadTask)
				if got := w.read("eve.txt"); got != "<missing>" {
					t.Errorf("eve.txt = %q: a teammate of a default lead wrote unasked\n%s", got, out.stdout)
				}
				if !sawResult(w, eveTask, "needs approval", true) {
					t.Errorf("eve's write was not refused as needing approval: %+v", resultsOf(w, eveTask))
				}
				if !sawResult(w, leadTask, "It works in default mode, not acceptEdits as asked", false) {
					t.Errorf("the lead's model was not told eve works in default mode: %+v", resultsOf(w, leadTask))
				}
				if !sawResult(w, leadTask, `mode "bypassPermissions"`, true) {
					t.Errorf("the bypassPermissions teammate was not refused: %+v", resultsOf(w, leadTask))
				}
				for _, r := range w.srv.Requests() {
					if strings.Contains(r.FirstUser().Text, "MAL TASK") {
						t.Fatal("the bypassPermissions teammate ran")
					}
				}
				if process {
					data, err := os.ReadFile(filepath.Join(w.cfg, "teams", "core", "logs", "eve.jsonl"))
					if err != nil || !strings.Contains(string(data), `"permissionMode":"default"`) || strings.Contains(string(data), `"permissionMode":"acceptEdits"`) {
						t.Errorf("eve's process did not work in default mode (%v):\n%s", err, data)
					}
				}
			})
		})
	}
}

// TestTeamPlanModeLeadsTeammatesPlan: a lead in plan mode may start only
// a teammate that must plan first, and that teammate plans: asked for
// acceptEdits, it still cannot write anything but its plan.
func TestTeamPlanModeLeadsTeammatesPlan(t *testing.T) {
	const (
		leadTask  = "PLANNING LEAD: get help"
		planTask  = "PLANNER TASK: create planner.txt"
		freeTask  = "FREE TASK: create free.txt"
		refusedIn = "nothing but the plan file may change"
	)
	for _, process := range []bool{false, true} {
		t.Run(teamModeName[process], func(t *testing.T) {
			forAPIs(t, func(t *testing.T, api string) {
				lead := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = leadTask; return m }
				planner := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = planTask; return m }
				w := newWorld(t, api,
					fakemodel.Reply{Name: "lead starts helpers", When: lead(fakemodel.Match{LastUser: leadTask}), ToolCalls: tools(
						call{Name: "SpawnTeammate", Input: map[string]any{"name": "planner", "prompt": planTask, "mode": "acceptEdits", "plan_mode_required": true, "process": process}},
						call{Name: "SpawnTeammate", Input: map[string]any{"name": "free", "prompt": freeTask, "mode": "acceptEdits", "process": process}})},
					fakemodel.Reply{Name: "lead waits", When: lead(fakemodel.Match{ToolResult: "Teammate planner started"}), Text: "The team is at work."},
					fakemodel.Reply{Name: "lead notes", When: lead(fakemodel.Match{LastUser: "is idle"}), Text: "Noted.", Times: -1},
					fakemodel.Reply{Name: "planner writes", When: planner(fakemodel.Match{LastUser: planTask}), ToolCalls: []fakemodel.ToolCall{writeCall("planner.txt", "too early\n")}},
					fakemodel.Reply{Name: "planner stops", When: planner(fakemodel.Match{ToolResult: "planner.txt"}), Text: "I will plan first."},
				)
				out := w.mustRun(0, "", "-p", "--team", "core", "--permission-mode", "plan", "--output-format", "stream-json", leadTask)
				if got := w.read("planner.txt"); got != "<missing>" {
					t.Errorf("planner.txt = %q: a teammate of a planning lead wrote\n%s", got, out.stdout)
				}
				if !sawResult(w, planTask, refusedIn, true) {
					t.Errorf("the planner's write was not refused by plan mode: %+v", resultsOf(w, planTask))
				}
				if !sawResult(w, leadTask, "Teammate planner started", false) {
					t.Errorf("the planning teammate was not started: %+v", resultsOf(w, leadTask))
				}
				if !sawResult(w, leadTask, "only read-only agent types", true) {
					t.Errorf("a teammate free to write was started by a lead in plan mode: %+v", resultsOf(w, leadTask))
				}
				for _, r := range w.srv.Requests() {
					if strings.Contains(r.FirstUser().Text, freeTask) {
						t.Fatal("the teammate free to write ran")
					}
				}
			})
		})
	}
}

// TestTeamApprovalHeldToLeadsMode: a default lead's model approves a
// teammate's plan "in acceptEdits". The teammate implements in default
// mode, so its write is refused like the lead's would be, and the lead's
// model is told which mode it gave.
func TestTeamApprovalHeldToLeadsMode(t *testing.T) {
	const (
		leadTask = "APPROVING LEAD: get a plan done"
		mateTask = "IVY TASK: create ivy.txt"
	)
	for _, process := range []bool{false, true} {
		t.Run(teamModeName[process], func(t *testing.T) {
			forAPIs(t, func(t *testing.T, api string) {
				lead := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = leadTask; return m }
				ivy := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = mateTask; return m }
				w := newWorld(t, api,
					fakemodel.Reply{Name: "lead starts ivy", When: lead(fakemodel.Match{LastUser: leadTask}), ToolCalls: tools(
						call{Name: "SpawnTeammate", Input: map[string]any{"name": "ivy", "prompt": mateTask, "mode": "default", "plan_mode_required": true, "process": process}})},
					fakemodel.Reply{Name: "lead waits", When: lead(fakemodel.Match{ToolResult: "Teammate ivy started"}), Text: "Waiting for ivy's plan."},
					fakemodel.Reply{Name: "lead approves freely", When: lead(fakemodel.Match{LastUser: "ivy plan"}),
						ToolCalls: []fakemodel.ToolCall{{Name: "SendMessage", InputFunc: func(r *fakemodel.Request) any {
							return map[string]any{"type": "plan_approval_response", "to": "ivy", "request_id": lastRequestID(r), "approve": true, "mode": "acceptEdits"}
						}}}},
					fakemodel.Reply{Name: "lead notes its answer", When: lead(fakemodel.Match{ToolResult: "ivy's plan"}), Text: "Answered.", Times: -1},
					fakemodel.Reply{Name: "lead notes", When: lead(fakemodel.Match{LastUser: "is idle"}), Text: "Noted.", Times: -1},
					fakemodel.Reply{Name: "ivy plans", When: ivy(fakemodel.Match{LastUser: mateTask}), ToolCalls: []fakemodel.ToolCall{
						{Name: "Write", InputFunc: func(r *fakemodel.Request) any {
							return map[string]any{"file_path": planPath(r), "content": "# ivy plan\n\nWrite ivy.txt.\n"}
						}}, {Name: "ExitPlanMode", Input: map[string]any{}}}},
					fakemodel.Reply{Name: "ivy implements", When: ivy(fakemodel.Match{ToolResult: "approved your plan"}), ToolCalls: []fakemodel.ToolCall{writeCall("ivy.txt", "unasked\n")}},
					fakemodel.Reply{Name: "ivy gives up", When: ivy(fakemodel.Match{ToolResult: "ivy.txt"}), Text: "ivy could not write"},
				)
				out := w.mustRun(0, "", "-p", "--team", "core", "--output-format", "stream-json", leadTask)
				if !sawResult(w, mateTask, "approved your plan", false) {
					t.Fatalf("ivy's plan was never approved:\n%s\n%s", out.stdout, out.stderr)
				}
				if got := w.read("ivy.txt"); got != "<missing>" {
					t.Errorf("ivy.txt = %q: approved into acceptEdits by a default lead, ivy wrote unasked", got)
				}
				if !sawResult(w, mateTask, "needs approval", true) {
					t.Errorf("ivy's write was not refused as needing approval: %+v", resultsOf(w, mateTask))
				}
				if !sawResult(w, leadTask, "It implements in default mode, not acceptEdits as asked", false) {
					t.Errorf("the lead's model was not told the mode it gave: %+v", resultsOf(w, leadTask))
				}
			})
		})
	}
}

// TestTeamForgedApprovalCannotFreeATeammate: whoever can write to the
// team's mailbox and read the team's key (a process of the same user) can
// forge an answer that the teammate takes for the lead's. A teammate
// process told its lead's mode (default) gets no freer from such an
// answer asking for acceptEdits: it implements in default mode, and says
// so.
func TestTeamForgedApprovalCannotFreeATeammate(t *testing.T) {
	const mateTask = "JUNE TASK: create june.txt"
	for _, kind := range []string{"files", "nats"} {
		t.Run(kind, func(t *testing.T) {
			forAPIs(t, func(t *testing.T, api string) {
				june := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = mateTask; return m }
				w := newWorld(t, api,
					fakemodel.Reply{Name: "june plans", When: june(fakemodel.Match{LastUser: mateTask}), ToolCalls: []fakemodel.ToolCall{
						{Name: "Write", InputFunc: func(r *fakemodel.Request) any {
							return map[string]any{"file_path": planPath(r), "content": "# june plan\n\nWrite june.txt.\n"}
						}}, {Name: "ExitPlanMode", Input: map[string]any{}}}},
					fakemodel.Reply{Name: "june implements", When: june(fakemodel.Match{ToolResult: "approved your plan"}), ToolCalls: []fakemodel.ToolCall{writeCall("june.txt", "unasked\n")}},
					fakemodel.Reply{Name: "june gives up", When: june(fakemodel.Match{ToolResult: "june.txt"}), Text: "june could not write"},
				)
				setting := "files"
				if kind == "nats" {
					setting = startNATS(t)
				}
				// Asked for acceptEdits on its own command line, but told
				// its lead works in default mode.
				mate := startTeammate(w, w.cfg, "--team", "core", "--name", "june", "--mailbox", setting, "--plan-mode-required",
					"--permission-mode", "acceptEdits", "--lead-mode", "default", mateTask)
				mate.killAfter(45 * time.Second)
				init := mate.next("init", func(m map[string]any) bool { return m["subtype"] == "init" })
				if init["permissionMode"] != "default" {
					t.Errorf("june announced %v; want default", init["permissionMode"])
				}
				mate.next("june waiting", isEvent("teammate_state", map[string]any{"state": "awaiting_approval"}))

				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				mb, err := mailbox.Open(setting, w.cfg, "core")
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
				// Signed with the team's key, as a process of the user's
				// that reads the key could: the ceiling still holds.
				forged := leadAnswer(t, w.cfg, "june", mailbox.PlanApprovalResponse{RequestID: req.RequestID, Approved: true, Mode: "acceptEdits"})
				if err := mb.Send(ctx, forged); err != nil {
					t.Fatal(err)
				}
				mate.next("the mode held", func(m map[string]any) bool {
					return m["event"] == "notice" && strings.Contains(fmt.Sprint(m["text"]), "works at most in default")
				})
				mate.next("june idle", isEvent("teammate_state", map[string]any{"state": "idle"}))
				if got := w.read("june.txt"); got != "<missing>" {
					t.Errorf("june.txt = %q: a forged answer freed the teammate", got)
				}
				if !sawResult(w, mateTask, "needs approval", true) {
					t.Errorf("june's write was not refused as needing approval: %+v", resultsOf(w, mateTask))
				}
			})
		})
	}
}

// TestTeamResumedTeammateHeldToNewLead: a teammate started again by a
// lead resumes its session, and with it the mode it had. A lead in
// acceptEdits started it in acceptEdits; a later lead in default mode
// starts it again without naming a mode: the teammate comes back in
// default mode, and its write is refused. A lead in plan mode starts it
// again (as a teammate that must plan first, which it may): it comes
// back in plan mode.
func TestTeamResumedTeammateHeldToNewLead(t *testing.T) {
	const (
		firstLead  = "FIRST LEAD: bob writes one"
		secondLead = "SECOND LEAD: bob writes two"
		thirdLead  = "THIRD LEAD: bob writes three"
		bobFirst   = "BOB FIRST: create one.txt"
		bobAgain   = "BOB AGAIN: create two.txt"
		bobThird   = "BOB THIRD: create three.txt"
	)
	forAPIs(t, func(t *testing.T, api string) {
		bob := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = bobFirst; return m }
		w := newWorld(t, api,
			fakemodel.Reply{Name: "first lead starts bob", When: fakemodel.Match{FirstUser: firstLead, LastUser: firstLead}, ToolCalls: tools(
				call{Name: "SpawnTeammate", Input: map[string]any{"name": "bob", "prompt": bobFirst, "mode": "acceptEdits"}})},
			fakemodel.Reply{Name: "second lead starts bob again", When: fakemodel.Match{FirstUser: secondLead, LastUser: secondLead}, ToolCalls: tools(
				call{Name: "SpawnTeammate", Input: map[string]any{"name": "bob", "prompt": "go on"}},
				call{Name: "SendMessage", Input: map[string]any{"to": "bob", "message": bobAgain}})},
			fakemodel.Reply{Name: "third lead starts bob again", When: fakemodel.Match{FirstUser: thirdLead, LastUser: thirdLead}, ToolCalls: tools(
				call{Name: "SpawnTeammate", Input: map[string]any{"name": "bob", "prompt": "go on", "plan_mode_required": true}},
				call{Name: "SendMessage", Input: map[string]any{"to": "bob", "message": bobThird}})},
			fakemodel.Reply{Name: "bob writes three", When: bob(fakemodel.Match{LastUser: bobThird}), ToolCalls: []fakemodel.ToolCall{writeCall("three.txt", "three\n")}},
			fakemodel.Reply{Name: "bob tried three", When: bob(fakemodel.Match{ToolResult: "three.txt"}), Text: "tried three"},
			fakemodel.Reply{Name: "a lead waits", When: fakemodel.Match{ToolResult: "Teammate bob started"}, Text: "Waiting.", Times: -1},
			fakemodel.Reply{Name: "a lead notes", When: fakemodel.Match{LastUser: "is idle"}, Text: "Noted.", Times: -1},
			fakemodel.Reply{Name: "bob writes one", When: bob(fakemodel.Match{LastUser: bobFirst}), ToolCalls: []fakemodel.ToolCall{writeCall("one.txt", "one\n")}},
			fakemodel.Reply{Name: "bob wrote one", When: bob(fakemodel.Match{ToolResult: "one.txt"}), Text: "wrote one"},
			fakemodel.Reply{Name: "bob writes two", When: bob(fakemodel.Match{LastUser: bobAgain}), ToolCalls: []fakemodel.ToolCall{writeCall("two.txt", "two\n")}},
			fakemodel.Reply{Name: "bob tried two", When: bob(fakemodel.Match{ToolResult: "two.txt"}), Text: "tried two"},
		)
		w.mustRun(0, "", "-p", "--team", "core", "--permission-mode", "acceptEdits", "--output-format", "stream-json", firstLead)
		if got := w.read("one.txt"); got != "one\n" {
			t.Fatalf("one.txt = %q: under an acceptEdits lead bob should have written it", got)
		}
		out := w.mustRun(0, "", "-p", "--team", "core", "--output-format", "stream-json", secondLead)
		if !sawResult(w, bobFirst, "two.txt", false) {
			t.Fatalf("bob never tried two.txt:\n%s\n%s", out.stdout, out.stderr)
		}
		if got := w.read("two.txt"); got != "<missing>" {
			t.Errorf("two.txt = %q: resumed under a default lead, bob kept acceptEdits", got)
		}
		if !sawResult(w, bobFirst, "needs approval", true) {
			t.Errorf("bob's second write was not refused as needing approval: %+v", resultsOf(w, bobFirst))
		}
		out = w.mustRun(0, "", "-p", "--team", "core", "--permission-mode", "plan", "--output-format", "stream-json", thirdLead)
		if !sawResult(w, bobFirst, "three.txt", false) {
			t.Fatalf("bob never tried three.txt:\n%s\n%s", out.stdout, out.stderr)
		}
		if got := w.read("three.txt"); got != "<missing>" {
			t.Errorf("three.txt = %q: resumed under a lead in plan mode, bob wrote", got)
		}
		if !sawResult(w, bobFirst, "nothing but the plan file may change", true) {
			t.Errorf("bob's third write was not refused by plan mode: %+v", resultsOf(w, bobFirst))
		}
	})
}

// TestTeamProcessTeammateFollowsLeadDown: a lead in acceptEdits starts a
// teammate process in acceptEdits, which writes unasked. The host then
// puts the lead in default mode; the teammate is told (a mode_limit
// message, ahead of anything the lead sends it next), and its next write
// is refused.
func TestTeamProcessTeammateFollowsLeadDown(t *testing.T) {
	const (
		leadTask = "DOWN LEAD: start bob"
		leadMore = "DOWN LEAD AGAIN: more from bob"
		bobTask  = "DOWN BOB: create one.txt"
		bobMore  = "DOWN BOB MORE: create two.txt"
	)
	forAPIs(t, func(t *testing.T, api string) {
		lead := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = leadTask; return m }
		bob := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = bobTask; return m }
		w := newWorld(t, api,
			fakemodel.Reply{Name: "lead starts bob", When: lead(fakemodel.Match{LastUser: leadTask}), ToolCalls: tools(
				call{Name: "SpawnTeammate", Input: map[string]any{"name": "bob", "prompt": bobTask, "mode": "acceptEdits", "process": true}})},
			fakemodel.Reply{Name: "lead waits", When: lead(fakemodel.Match{ToolResult: "Teammate bob started"}), Text: "Bob is at work."},
			fakemodel.Reply{Name: "lead asks for more", When: lead(fakemodel.Match{LastUser: leadMore}), ToolCalls: tools(
				call{Name: "SendMessage", Input: map[string]any{"to": "bob", "message": bobMore}})},
			fakemodel.Reply{Name: "lead sent", When: lead(fakemodel.Match{ToolResult: "Message sent to bob"}), Text: "Asked bob."},
			fakemodel.Reply{Name: "lead notes", When: lead(fakemodel.Match{LastUser: "is idle"}), Text: "Noted.", Times: -1},
			fakemodel.Reply{Name: "bob writes one", When: bob(fakemodel.Match{LastUser: bobTask}), ToolCalls: []fakemodel.ToolCall{writeCall("one.txt", "one\n")}},
			fakemodel.Reply{Name: "bob wrote one", When: bob(fakemodel.Match{ToolResult: "one.txt"}), Text: "wrote one"},
			fakemodel.Reply{Name: "bob writes two", When: bob(fakemodel.Match{LastUser: bobMore}), ToolCalls: []fakemodel.ToolCall{writeCall("two.txt", "two\n")}},
			fakemodel.Reply{Name: "bob tried two", When: bob(fakemodel.Match{ToolResult: "two.txt"}), Text: "tried two"},
		)
		host := w.start("--team", "core", "--permission-mode", "acceptEdits")
		host.killAfter(60 * time.Second)
		host.say(leadTask)
		host.next("bob idle", isEvent("teammate_state", map[string]any{"name": "bob", "state": "idle"}))
		if got := w.read("one.txt"); got != "one\n" {
			t.Fatalf("one.txt = %q: under a lead in acceptEdits bob should have written it", got)
		}
		host.send(map[string]any{"type": "control_request", "request_id": "down", "request": map[string]any{"subtype": "set_permission_mode", "mode": "default"}})
		host.next("the mode changed", func(m map[string]any) bool { return m["type"] == "control_response" })
		host.say(leadMore)
		host.next("bob working again", isEvent("teammate_state", map[string]any{"name": "bob", "state": "working"}))
		host.next("bob idle again", isEvent("teammate_state", map[string]any{"name": "bob", "state": "idle"}))
		if !sawResult(w, bobTask, "two.txt", false) {
			t.Fatalf("bob never tried two.txt")
		}
		if got := w.read("two.txt"); got != "<missing>" {
			t.Errorf("two.txt = %q: after its lead went to default, bob still wrote unasked", got)
		}
		if !sawResult(w, bobTask, "needs approval", true) {
			t.Errorf("bob's second write was not refused as needing approval: %+v", resultsOf(w, bobTask))
		}
		host.close()
	})
}
