package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// planPathRE finds the plan file a plan-mode reminder names.
var planPathRE = regexp.MustCompile(`(/\S+/plans/[a-z0-9_-]+\.md)`)

// planPath returns the plan file named anywhere in the request.
func planPath(r *fakemodel.Request) string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if m := planPathRE.FindString(r.Messages[i].Text); m != "" {
			return m
		}
	}
	return "no-plan-path-in-request"
}

const thePlan = "# Greeting\n\n1. Create hello.txt saying hello.\n2. Verify with cat hello.txt.\n"

// writePlan is a reply that writes the plan to the plan file the reminder
// names, and in the same message tries to jump ahead and create the
// project file (which plan mode must refuse).
func writePlan(when fakemodel.Match) fakemodel.Reply {
	return fakemodel.Reply{Name: "write plan", When: when, ToolCalls: []fakemodel.ToolCall{
		{Name: "Write", InputFunc: func(r *fakemodel.Request) any {
			return map[string]any{"file_path": planPath(r), "content": thePlan}
		}},
		{Name: "Write", Input: map[string]any{"file_path": "hello.txt", "content": "too early"}},
	}}
}

var exitPlan = fakemodel.Reply{Name: "exit plan", When: fakemodel.Match{ToolResult: "Plan mode is on, so nothing but the plan file may change"},
	ToolCalls: []fakemodel.ToolCall{{Name: "ExitPlanMode", Input: map[string]any{}}}}

func implement(when string) fakemodel.Reply {
	return fakemodel.Reply{Name: "implement", When: fakemodel.Match{LastUser: when},
		ToolCalls: []fakemodel.ToolCall{{Name: "Write", Input: map[string]any{"file_path": "hello.txt", "content": "hello\n"}}}}
}

var finished = fakemodel.Reply{Name: "finish", When: fakemodel.Match{ToolResult: "hello.txt ("}, Text: "Implemented the plan."}

func TestPlanApprovalOptionsOverStreamJSON(t *testing.T) {
	cases := []struct {
		option   string
		flags    []string
		wantMode string
		askEdit  bool // approve each edit: the implementation's Write asks first
		clear    bool
	}{
		{option: "accept-edits", wantMode: "acceptEdits"},
		{option: "manual", wantMode: "default", askEdit: true},
		{option: "approve", wantMode: "acceptEdits"}, // back to the mode before plan mode
		{option: "clear-context", wantMode: "acceptEdits", clear: true},
		{option: "bypass", flags: []string{"--dangerously-skip-permissions"}, wantMode: "bypassPermissions"},
	}
	for i, tc := range cases {
		api := apis[i%2]
		t.Run(tc.option+"/"+api, func(t *testing.T) {
			t.Parallel()
			implWhen := "approved your plan"
			if tc.clear {
				implWhen = "Carry out this approved plan"
			}
			w := newWorld(t, api,
				writePlan(fakemodel.Match{LastUser: "add a greeting"}),
				exitPlan,
				implement(implWhen),
				finished,
			)
			s := w.start(append([]string{"--permission-mode", "acceptEdits"}, tc.flags...)...)
			s.send(map[string]any{"type": "control_request", "request_id": "m1", "request": map[string]any{"subtype": "set_permission_mode", "mode": "plan"}})
			s.next("the mode change", func(m map[string]any) bool { return m["type"] == "control_response" && m["request_id"] == "m1" })
			s.say("add a greeting")

			req := s.control("plan_exit")
			body := req["request"].(map[string]any)
			if body["plan"] != thePlan || !strings.HasSuffix(fmt.Sprint(body["plan_file"]), ".md") {
				t.Fatalf("plan_exit request %v", body)
			}
			if w.read("hello.txt") != "<missing>" {
				t.Fatal("a project file changed before the plan was approved")
			}
			options := fmt.Sprint(body["options"])
			if strings.Contains(options, "bypass") != (tc.option == "bypass") {
				t.Fatalf("options %s", options)
			}
			s.answer(req, map[string]any{"option": tc.option})
			if tc.askEdit {
				perm := s.control("can_use_tool")
				if perm["request"].(map[string]any)["tool_name"] != "Write" {
					t.Fatalf("permission request %v", perm)
				}
				s.answer(perm, map[string]any{"behavior": "allow"})
			}
			res := s.result()
			if res["subtype"] != "success" || res["permission_mode"] != tc.wantMode || res["result"] != "Implemented the plan." {
				t.Fatalf("result %v", res)
			}
			if code := s.close(); code != 0 {
				t.Fatalf("exit %d", code)
			}
			if got := w.read("hello.txt"); got != "hello\n" {
				t.Fatalf("hello.txt = %q", got)
			}
			evs := strings.Join(s.eventNames(), " ")
			for _, want := range []string{"mode_changed", "plan_mode_entered", "tool_refused", "plan_exit_requested", "plan_approved"} {
				if !strings.Contains(evs, want) {
					t.Errorf("no %s event in %s", want, evs)
				}
			}
			if strings.Contains(evs, "plan_implement") != tc.clear {
				t.Errorf("plan_implement presence wrong: %s", evs)
			}
			w.allUsed()
			// The model learns it left plan mode, once.
			exits := 0
			for _, r := range w.srv.Requests() {
				if strings.Contains(r.LastUser().Text, "Plan mode is off") {
					exits++
				}
			}
			if exits != 1 {
				t.Errorf("plan_mode_exit reminder sent %d times", exits)
			}
		})
	}
}

func TestPlanRejectionFeedbackReachesTheModel(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			writePlan(fakemodel.Match{LastUser: "add a greeting"}),
			exitPlan,
			fakemodel.Reply{Name: "revise", When: fakemodel.Match{ToolResult: "also greet in French"},
				ToolCalls: []fakemodel.ToolCall{{Name: "Write", Input: map[string]any{"file_path": "hello.txt", "content": "hi\n"}}}},
			fakemodel.Reply{Name: "stop", When: fakemodel.Match{ToolResult: "Plan mode is on"}, Text: "I will revise the plan."},
		)
		s := w.start("--permission-mode", "plan")
		s.say("add a greeting")
		s.answer(s.control("plan_exit"), map[string]any{"option": "reject", "feedback": "also greet in French"})
		res := s.result()
		if res["permission_mode"] != "plan" || res["result"] != "I will revise the plan." {
			t.Fatalf("result %v", res)
		}
		s.close()
		if w.read("hello.txt") != "<missing>" {
			t.Fatal("after a rejection the rules must still hold")
		}
		if !strings.Contains(strings.Join(s.eventNames(), " "), "plan_rejected") {
			t.Fatalf("events %v", s.eventNames())
		}
		w.allUsed()
	})
}

func TestInterruptedApprovalLeavesPlanModeOn(t *testing.T) {
	w := newWorld(t, "anthropic",
		writePlan(fakemodel.Match{LastUser: "add a greeting"}),
		exitPlan,
		fakemodel.Reply{Name: "after", When: fakemodel.Match{ToolResult: "Nobody approved the plan"},
			ToolCalls: []fakemodel.ToolCall{{Name: "Write", Input: map[string]any{"file_path": "hello.txt", "content": "x"}}}},
		fakemodel.Reply{Name: "stop", When: fakemodel.Match{ToolResult: "Plan mode is on"}, Text: "Waiting for you."},
	)
	s := w.start("--permission-mode", "plan")
	s.say("add a greeting")
	s.control("plan_exit")
	s.stdin.Close() // the host goes away without answering
	res := s.result()
	if res["permission_mode"] != "plan" {
		t.Fatalf("result %v", res)
	}
	s.close()
	if w.read("hello.txt") != "<missing>" {
		t.Fatal("a write went through after an unanswered approval")
	}
	w.allUsed()
}

func TestHeadlessPendingThenResumeWithApproval(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			writePlan(fakemodel.Match{LastUser: "add a greeting"}),
			exitPlan,
			implement("approved your plan"),
			finished,
		)
		o := w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--output-format", "json")
		res := lastResult(t, o.stdout)
		if res["subtype"] != "plan_pending" || res["plan"] != thePlan || !strings.HasSuffix(fmt.Sprint(res["plan_file"]), ".md") || res["permission_mode"] != "plan" {
			t.Fatalf("pending result %v", res)
		}
		if w.read("hello.txt") != "<missing>" {
			t.Fatal("changed before approval")
		}
		// The plan file is named after the task (F10).
		if base := filepath.Base(fmt.Sprint(res["plan_file"])); !strings.HasPrefix(base, "add-greeting-") || strings.Count(base, "-") != 3 {
			t.Fatalf("plan file name %q does not start with the task's words", base)
		}
		id := fmt.Sprint(res["session_id"])
		// Sending a new prompt while the approval waits is refused.
		if o := w.run("", "-p", "carry on", "--resume", id); o.code != 2 || !strings.Contains(o.stderr, "waiting for approval") {
			t.Fatalf("prompt with a pending approval: %d %q", o.code, o.stderr)
		}
		o = w.mustRun(0, "", "-p", "--resume", id, "--approve-plan", "accept-edits", "--output-format", "json")
		res = lastResult(t, o.stdout)
		if res["subtype"] != "success" || res["permission_mode"] != "acceptEdits" || res["result"] != "Implemented the plan." {
			t.Fatalf("after approval %v", res)
		}
		if w.read("hello.txt") != "hello\n" {
			t.Fatalf("hello.txt = %q", w.read("hello.txt"))
		}
		// Answering twice is a usage error.
		if o := w.run("", "-p", "--resume", id, "--approve-plan", "manual"); o.code != 2 {
			t.Fatalf("second answer: exit %d", o.code)
		}
		w.allUsed()
	})
}

func TestHeadlessPendingThenResumeWithRejection(t *testing.T) {
	w := newWorld(t, "openai",
		writePlan(fakemodel.Match{LastUser: "add a greeting"}),
		exitPlan,
		fakemodel.Reply{Name: "heard", When: fakemodel.Match{ToolResult: "use a constant"}, Text: "Revising."},
	)
	o := w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--output-format", "json")
	id := fmt.Sprint(lastResult(t, o.stdout)["session_id"])
	o = w.mustRun(0, "", "-p", "--resume", id, "--reject-plan", "use a constant", "--output-format", "json")
	if res := lastResult(t, o.stdout); res["permission_mode"] != "plan" || res["result"] != "Revising." {
		t.Fatalf("after rejection %v", res)
	}
	w.allUsed()
}

func TestPlanApprovalPolicyFlag(t *testing.T) {
	w := newWorld(t, "anthropic",
		writePlan(fakemodel.Match{LastUser: "add a greeting"}),
		exitPlan,
		implement("approved your plan"),
		finished,
	)
	o := w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--plan-approval", "accept-edits")
	if strings.TrimSpace(o.stdout) != "Implemented the plan." || w.read("hello.txt") != "hello\n" {
		t.Fatalf("stdout %q, hello.txt %q", o.stdout, w.read("hello.txt"))
	}
}

// reminderKinds classifies the plan-mode reminders of a request's last
// user message.
func reminderKinds(r fakemodel.Request) string {
	text := r.LastUser().Text
	var kinds []string
	if strings.Contains(text, "## Back in plan mode") {
		kinds = append(kinds, "reentry")
	}
	if strings.Contains(text, "Plan mode is on. The user wants a plan") {
		kinds = append(kinds, "full")
	}
	if strings.Contains(text, "Plan mode is still on") {
		kinds = append(kinds, "short")
	}
	if strings.Contains(text, "## Plan mode is off") {
		kinds = append(kinds, "exit")
	}
	return strings.Join(kinds, "+")
}

func TestReminderScheduleOverTwelveHumanTurns(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			// Each turn makes one tool round trip, which must not count
			// as a human turn.
			fakemodel.Reply{Name: "look", Times: -1, When: fakemodel.Match{Func: func(r *fakemodel.Request) bool { return len(r.LastUser().ToolResults) == 0 }},
				ToolCalls: []fakemodel.ToolCall{{Name: "LS", Input: map[string]any{"path": "."}}}},
			fakemodel.Reply{Name: "answer", Times: -1, Text: "noted"},
		)
		s := w.start("--permission-mode", "plan")
		for i := 1; i <= 12; i++ {
			s.say(fmt.Sprintf("turn %d", i))
			s.result()
		}
		s.close()
		var got []string
		for _, r := range w.srv.Requests() {
			got = append(got, reminderKinds(r))
		}
		if len(got) != 24 {
			t.Fatalf("%d requests", len(got))
		}
		// Human turn n is request 2n-2; its tool round trip is 2n-1.
		want := make([]string, 24)
		want[0], want[10], want[20] = "full", "short", "short"
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("reminders per request\n got %q\nwant %q", got, want)
		}
	})
}

func TestExitAndReentryReminders(t *testing.T) {
	w := newWorld(t, "anthropic",
		writePlan(fakemodel.Match{LastUser: "first task"}),
		exitPlan,
		fakemodel.Reply{Name: "ok", When: fakemodel.Match{ToolResult: "approved your plan"}, Text: "approved, stopping here"},
		fakemodel.Reply{Name: "chat", Times: -1, Text: "fine"},
	)
	s := w.start("--permission-mode", "plan")
	s.say("first task")
	s.answer(s.control("plan_exit"), map[string]any{"option": "manual"})
	s.result()
	s.say("something else")
	s.result()
	s.send(map[string]any{"type": "control_request", "request_id": "m1", "request": map[string]any{"subtype": "set_permission_mode", "mode": "plan"}})
	s.say("second task")
	s.result()
	// Leaving by a mode change (as Shift+Tab does) also tells the model.
	s.send(map[string]any{"type": "control_request", "request_id": "m2", "request": map[string]any{"subtype": "set_permission_mode", "mode": "default"}})
	s.say("third")
	s.result()
	s.close()
	reqs := w.srv.Requests()
	var got []string
	for _, r := range reqs {
		got = append(got, reminderKinds(r))
	}
	want := []string{"full", "", "exit", "", "reentry+full", "exit"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("reminders\n got %q\nwant %q", got, want)
	}
}

func TestEnterPlanModeTool(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "enter", When: fakemodel.Match{LastUser: "big refactor"},
				ToolCalls: []fakemodel.ToolCall{{Name: "EnterPlanMode", Input: map[string]any{}}}},
			fakemodel.Reply{Name: "planning", When: fakemodel.Match{ToolResult: "Plan mode is on"}, Text: "Exploring first."},
		)
		s := w.start()
		s.say("big refactor please")
		req := s.control("enter_plan_mode")
		s.answer(req, map[string]any{"behavior": "allow"})
		entered := s.next("plan_mode_entered", func(m map[string]any) bool { return m["event"] == "plan_mode_entered" })
		if !strings.HasSuffix(fmt.Sprint(entered["plan_file"]), ".md") || entered["via"] != "tool" {
			t.Fatalf("event %v", entered)
		}
		if res := s.result(); res["permission_mode"] != "plan" {
			t.Fatalf("result %v", res)
		}
		s.close()
		reqs := w.srv.Requests()
		if !contains(reqs[0].Tools, "EnterPlanMode") {
			t.Fatal("EnterPlanMode not offered with a control channel")
		}
		// The workflow arrives by reminder with the tool's result.
		if reminderKinds(reqs[1]) != "full" {
			t.Fatalf("no full reminder after entering: %q", reqs[1].LastUser().Text)
		}
		w.allUsed()
	})
}

func TestEnterPlanModeOfferedOnlyWhereSomeoneCanAnswer(t *testing.T) {
	w := newWorld(t, "anthropic", fakemodel.Reply{Times: -1, Text: "ok"})
	w.mustRun(0, "", "-p", "hello")
	if tools := w.srv.Requests()[0].Tools; contains(tools, "EnterPlanMode") || contains(tools, "AskUserQuestion") {
		t.Fatalf("plain -p offers %v", tools)
	}
	w.write(".ponder/settings.json", `{"planMode":{"modelCanEnter":false}}`)
	s := w.start()
	s.say("hello")
	s.result()
	s.close()
	reqs := w.srv.Requests()
	if tools := reqs[len(reqs)-1].Tools; contains(tools, "EnterPlanMode") || !contains(tools, "AskUserQuestion") {
		t.Fatalf("modelCanEnter=false offers %v", tools)
	}
}

func TestPlanModeModelAndTodoWriteRemoval(t *testing.T) {
	w := newWorld(t, "anthropic",
		writePlan(fakemodel.Match{LastUser: "add a greeting"}),
		exitPlan,
		implement("approved your plan"),
		finished,
	)
	// Choosing models is for trusted folders.
	w.write(".ponder/settings.json", `{"models":{"plan":"planner-9"},"planMode":{"removeTodoWrite":true}}`)
	w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--plan-approval", "accept-edits", "--model", "worker-1", "--trust")
	reqs := w.srv.Requests()
	for i, r := range reqs {
		inPlan := i < 2
		wantModel := "worker-1"
		if inPlan {
			wantModel = "planner-9"
		}
		if r.Model != wantModel {
			t.Errorf("request %d used %s, want %s", i, r.Model, wantModel)
		}
		if contains(r.Tools, "TodoWrite") == inPlan {
			t.Errorf("request %d: TodoWrite offered=%v in plan mode=%v", i, contains(r.Tools, "TodoWrite"), inPlan)
		}
	}
}

func TestPlansDirectorySettingInsideProject(t *testing.T) {
	w := newWorld(t, "anthropic",
		writePlan(fakemodel.Match{LastUser: "add a greeting"}),
		exitPlan,
	)
	w.write(".ponder/settings.json", `{"plansDirectory":"docs/plans","planMode":{"fileNaming":"session-timestamp"}}`)
	// Untrusted, the project may not choose where ponder writes: the
	// plan goes to the config directory, and the notice says why.
	o := w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--output-format", "json")
	if file := fmt.Sprint(lastResult(t, o.stdout)["plan_file"]); !strings.HasPrefix(file, w.cfg) {
		t.Errorf("untrusted: plan file %s", file)
	}
	if !strings.Contains(o.stderr+o.stdout, "plansDirectory") {
		t.Errorf("no notice names the ignored plansDirectory:\n%s", o.stderr)
	}
	w.srv.Add(writePlan(fakemodel.Match{LastUser: "add a greeting"}), exitPlan)
	id := "11111111-2222-4333-8444-555555555555"
	o = w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--session-id", id, "--output-format", "json", "--trust")
	file := fmt.Sprint(lastResult(t, o.stdout)["plan_file"])
	if !strings.Contains(file, "/docs/plans/"+id+"_") {
		t.Fatalf("plan file %s", file)
	}
	if data, err := os.ReadFile(file); err != nil || string(data) != thePlan {
		t.Fatalf("plan file content %q %v", data, err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
