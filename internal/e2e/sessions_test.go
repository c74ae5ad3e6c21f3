package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// plannedSession runs a headless plan-mode session that writes the plan
// and a todo list and ends, returning the session id and the plan file.
func plannedSession(t *testing.T, w *world, id string) string {
	t.Helper()
	w.srv.Add(
		fakemodel.Reply{Name: "plan+todos", When: fakemodel.Match{LastUser: "make a plan"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Write", InputFunc: func(r *fakemodel.Request) any {
				return map[string]any{"file_path": planPath(r), "content": thePlan}
			}},
			{Name: "TodoWrite", Input: map[string]any{"todos": []map[string]any{
				{"content": "Write the plan", "status": "completed", "activeForm": "Writing the plan"},
				{"content": "Get it approved", "status": "in_progress", "activeForm": "Getting it approved"},
			}}},
		}},
		fakemodel.Reply{Name: "planned", When: fakemodel.Match{ToolResult: "todo list is updated"}, Text: "Plan written."},
	)
	o := w.mustRun(0, "", "-p", "make a plan", "--permission-mode", "plan", "--session-id", id, "--output-format", "json")
	return fmt.Sprint(lastResult(t, o.stdout)["plan_file"])
}

func TestResumeKeepsThePlanFileAndTheMode(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		id := "2c1a4b3d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
		plan := plannedSession(t, w, id)
		w.srv.Add(fakemodel.Reply{Name: "later", When: fakemodel.Match{LastUser: "continue"}, Text: "Still planning."})
		o := w.mustRun(0, "", "-p", "continue", "--resume", id, "--output-format", "json")
		res := lastResult(t, o.stdout)
		if res["permission_mode"] != "plan" || res["plan_file"] != plan {
			t.Fatalf("after resume: %v (plan file was %s)", res, plan)
		}
		// The resumed conversation holds the earlier turn, and plan mode's
		// rules still apply to it.
		reqs := w.srv.Requests()
		last := reqs[len(reqs)-1]
		if !last.ContainsText("make a plan") || last.Model == "" {
			t.Fatal("the resumed request lacks the earlier conversation")
		}
	})
}

func TestForkCopiesThePlanToANewName(t *testing.T) {
	w := newWorld(t, "anthropic")
	id := "3d2b5c4e-6f70-4b8c-9dae-1f2a3b4c5d6e"
	plan := plannedSession(t, w, id)
	w.srv.Add(fakemodel.Reply{Name: "fork", When: fakemodel.Match{LastUser: "try another way"}, Text: "Forked."})
	o := w.mustRun(0, "", "-p", "try another way", "--resume", id, "--fork-session", "--output-format", "json")
	res := lastResult(t, o.stdout)
	forkPlan := fmt.Sprint(res["plan_file"])
	if res["session_id"] == id || forkPlan == plan || filepath.Dir(forkPlan) != filepath.Dir(plan) {
		t.Fatalf("fork result %v (original plan %s)", res, plan)
	}
	orig, _ := os.ReadFile(plan)
	copied, _ := os.ReadFile(forkPlan)
	if string(orig) != thePlan || string(copied) != thePlan {
		t.Fatalf("plan contents: original %q, copy %q", orig, copied)
	}
	// The todo list moved with the fork.
	forkID := fmt.Sprint(res["session_id"])
	todos, err := os.ReadFile(filepath.Join(w.cfg, "todos", forkID+"-agent-"+forkID+".json"))
	if err != nil || !strings.Contains(string(todos), "Get it approved") {
		t.Fatalf("fork todos %q %v", todos, err)
	}
}

func TestDeletedPlanFileComesBackOnResume(t *testing.T) {
	w := newWorld(t, "anthropic")
	id := "4e3c6d5f-7081-4c9d-8ebf-2a3b4c5d6e7f"
	plan := plannedSession(t, w, id)
	if err := os.Remove(plan); err != nil {
		t.Fatal(err)
	}
	w.srv.Add(fakemodel.Reply{Name: "back", When: fakemodel.Match{LastUser: "where were we"}, Text: "Here."})
	o := w.mustRun(0, "", "-p", "where were we", "--resume", id)
	data, err := os.ReadFile(plan)
	if err != nil || string(data) != thePlan {
		t.Fatalf("plan file after resume: %q %v", data, err)
	}
	if !strings.Contains(o.stderr, "restored it from") {
		t.Fatalf("the user is not told: %q", o.stderr)
	}
}

func TestApprovedPlanRestoresWhenSnapshotsAreLost(t *testing.T) {
	w := newWorld(t, "anthropic",
		writePlan(fakemodel.Match{LastUser: "add a greeting"}),
		exitPlan,
		fakemodel.Reply{Name: "approved", When: fakemodel.Match{ToolResult: "approved your plan"}, Text: "ok"},
		fakemodel.Reply{Name: "later", When: fakemodel.Match{LastUser: "again"}, Text: "back"},
	)
	id := "5f4d7e60-8192-4dae-9fc0-3b4c5d6e7f80"
	o := w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--plan-approval", "manual", "--session-id", id, "--output-format", "json")
	plan := fmt.Sprint(lastResult(t, o.stdout)["plan_file"])
	// Drop the write snapshots from the transcript, keep the approved one.
	var transcript string
	filepath.Walk(w.cfg, func(p string, _ os.FileInfo, _ error) error {
		if strings.HasSuffix(p, id+".jsonl") {
			transcript = p
		}
		return nil
	})
	data, _ := os.ReadFile(transcript)
	var kept []string
	approved := 0
	for _, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if strings.Contains(l, `"type":"plan_snapshot"`) {
			if !strings.Contains(l, `"approved":true`) {
				continue
			}
			approved++
		}
		kept = append(kept, l)
	}
	if approved != 1 {
		t.Fatalf("%d approved snapshots in the transcript", approved)
	}
	os.WriteFile(transcript, []byte(strings.Join(kept, "\n")+"\n"), 0o600)
	os.Remove(plan)
	o = w.mustRun(0, "", "-p", "again", "--resume", id)
	if got, _ := os.ReadFile(plan); string(got) != thePlan || !strings.Contains(o.stderr, "last approved plan") {
		t.Fatalf("restored %q; stderr %q", got, o.stderr)
	}
}

func TestPendingApprovalSurvivesResume(t *testing.T) {
	w := newWorld(t, "openai",
		writePlan(fakemodel.Match{LastUser: "add a greeting"}),
		exitPlan,
	)
	o := w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--output-format", "json")
	id := fmt.Sprint(lastResult(t, o.stdout)["session_id"])
	// A plain prompt cannot go past it.
	if o := w.run("", "-p", "so?", "--resume", id); o.code != 2 || !strings.Contains(o.stderr, "waiting for approval") {
		t.Fatalf("a prompt over a pending approval: %d %q", o.code, o.stderr)
	}
	// A host resuming over stream-json is asked again at once, and its
	// answer continues the turn.
	w.srv.Add(implement("approved your plan"), finished)
	s := w.start("--resume", id)
	req := s.control("plan_exit")
	if req["request"].(map[string]any)["plan"] != thePlan {
		t.Fatalf("the resumed approval lacks the plan: %v", req)
	}
	s.answer(req, map[string]any{"option": "accept-edits"})
	if res := s.result(); res["result"] != "Implemented the plan." || res["permission_mode"] != "acceptEdits" {
		t.Fatalf("result %v", res)
	}
	s.close()
	if w.read("hello.txt") != "hello\n" {
		t.Fatal("the implementation did not run")
	}
}

// After automatic compaction, the next request carries the summary, the
// plan and the todo list, and plan mode still holds.
func TestCompactionKeepsPlanTodosAndRules(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		id := "6a5e8f71-92a3-4ebf-80d1-4c5d6e7f8091"
		plannedSession(t, w, id)
		w.write(".ponder/settings.json", `{"context":{"window":10000,"autoCompactAt":0.5}}`)
		w.srv.Add(
			// A large context: the next request must be preceded by a
			// compaction.
			fakemodel.Reply{Name: "big", When: fakemodel.Match{LastUser: "look deeper"}, Usage: fakemodel.Usage{InputTokens: 7000, OutputTokens: 100},
				ToolCalls: []fakemodel.ToolCall{{Name: "LS", Input: map[string]any{"path": "."}}}},
			fakemodel.Reply{Name: "summary", When: fakemodel.Match{System: "summarising a coding session"}, Text: "SUMMARY: we planned a greeting."},
			fakemodel.Reply{Name: "after compaction", When: fakemodel.Match{AnyMessage: "SUMMARY: we planned a greeting.", HasTool: "Write"},
				Usage:     fakemodel.Usage{InputTokens: 900, OutputTokens: 20},
				ToolCalls: []fakemodel.ToolCall{{Name: "Write", Input: map[string]any{"file_path": "hello.txt", "content": "too early"}}}},
			fakemodel.Reply{Name: "refused", When: fakemodel.Match{ToolResult: "nothing but the plan file may change", HasTool: "Write"}, Text: "Still in plan mode."},
		)
		o := w.mustRun(0, "", "-p", "look deeper", "--resume", id, "--output-format", "json")
		if res := lastResult(t, o.stdout); res["result"] != "Still in plan mode." || res["permission_mode"] != "plan" {
			t.Fatalf("result %v", res)
		}
		if w.read("hello.txt") != "<missing>" {
			t.Fatal("plan mode's rules did not hold after compaction")
		}
		var after *fakemodel.Request
		reqs := w.srv.Requests()
		for i := range reqs {
			if reqs[i].Reply == "after compaction" {
				after = &reqs[i]
			}
		}
		if after == nil {
			t.Fatal("no request after the compaction")
		}
		for _, want := range []string{"SUMMARY: we planned a greeting.", "Create hello.txt saying hello", "Get it approved", "Plan mode is on"} {
			if !after.ContainsText(want) {
				t.Errorf("the first request after compaction lacks %q", want)
			}
		}
		if after.ContainsText("make a plan") {
			t.Error("the compacted conversation still holds the old messages")
		}
		w.allUsed()
	})
}

func TestPlansCommand(t *testing.T) {
	w := newWorld(t, "anthropic")
	id := "7b6f9082-a3b4-4fc0-91e2-5d6e7f8091a2"
	plan := plannedSession(t, w, id)
	slug := strings.TrimSuffix(filepath.Base(plan), ".md")
	o := w.mustRun(0, "", "plans", "list")
	if !strings.Contains(o.stdout, slug) || !strings.Contains(o.stdout, id[:8]) || !strings.Contains(o.stdout, "Greeting") {
		t.Fatalf("plans list:\n%s", o.stdout)
	}
	if o := w.mustRun(0, "", "plans", "show"); o.stdout != thePlan {
		t.Fatalf("plans show: %q", o.stdout)
	}
	if o := w.mustRun(0, "", "plans", "path", slug[:6]); strings.TrimSpace(o.stdout) != plan {
		t.Fatalf("plans path: %q", o.stdout)
	}
	w.extraEnv = append(w.extraEnv, "EDITOR=true")
	if o := w.mustRun(0, "", "plans", "open", slug); !strings.Contains(o.stderr, plan) {
		t.Fatalf("plans open: %q", o.stderr)
	}
	if o := w.run("", "plans", "show", "no-such-plan"); o.code != 2 || !strings.Contains(o.stderr, "no plan named") {
		t.Fatalf("unknown plan: %d %q", o.code, o.stderr)
	}
}
