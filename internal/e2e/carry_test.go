package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// carryPlan has the shape the plan prompt asks for: three numbered steps
// and two named files.
const carryPlan = "# Greet the user\n\n## Implementation\n\n1. Write the greeting to `greet.txt`\n" +
	"2. Mention the greeting in `NOTES.md`\n3. Check the greeting with cat\n\n## Files\n\n- `greet.txt`\n- `NOTES.md`\n"

// carryTodos marks the first two steps done and leaves the third open:
// the implementation skips it.
var carryTodos = []map[string]any{
	{"content": "Write the greeting to `greet.txt`", "status": "completed", "activeForm": "Writing"},
	{"content": "Mention the greeting in `NOTES.md`", "status": "completed", "activeForm": "Mentioning"},
	{"content": "Check the greeting with cat", "status": "pending", "activeForm": "Checking"},
}

// carryReplies plans, asks for approval, and implements: one planned
// file, one unplanned, the todo list with a step skipped.
func carryReplies(prompt string) []fakemodel.Reply {
	return []fakemodel.Reply{
		writePlanText("carry plan", carryPlan, fakemodel.Match{LastUser: prompt}),
		{Name: "carry exit", When: fakemodel.Match{ToolResult: "Created"}, ToolCalls: []fakemodel.ToolCall{{Name: "ExitPlanMode", Input: map[string]any{}}}},
		{Name: "carry implement", When: fakemodel.Match{LastUser: "approved your plan"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Write", Input: map[string]any{"file_path": "greet.txt", "content": "hello\n"}},
			{Name: "Write", Input: map[string]any{"file_path": "NOTES.md", "content": "greetings\n"}},
			{Name: "Write", Input: map[string]any{"file_path": "other.txt", "content": "unplanned\n"}},
			{Name: "TodoWrite", Input: map[string]any{"todos": carryTodos}},
		}},
		{Name: "carry done", When: fakemodel.Match{ToolResult: "greet.txt"}, Text: "Implemented."},
		{Name: "carry drift", When: fakemodel.Match{LastUser: "Before you finish"}, Text: "I skipped the check with cat."},
	}
}

// The approved plan's steps become the todo list and reach hosts; the
// fence lets the planned file through and refuses the other with a
// reason the model reads; the step reminder is small.
func TestApprovedPlanCarriesStepsAndFencesEdits(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, carryReplies("add a greeting")...)
		o := w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--plan-approval", "accept-edits",
			"--output-format", "stream-json", "--verbose")
		if w.read("greet.txt") != "hello\n" {
			t.Fatalf("the planned file was not written: %q\n%s", w.read("greet.txt"), o.stderr)
		}
		if w.read("other.txt") != "<missing>" {
			t.Fatalf("the fence let an unplanned file through: %q", w.read("other.txt"))
		}
		var approved map[string]any
		for _, l := range lines(t, o.stdout) {
			if l["event"] == "plan_approved" {
				approved = l
			}
		}
		steps, _ := approved["steps"].([]any)
		if len(steps) != 3 || !strings.Contains(fmtJSON(approved["files"]), "NOTES.md") || approved["title"] != "Greet the user" {
			t.Fatalf("plan_approved does not carry the steps and files: %v", approved)
		}
		var impl, done *fakemodel.Request
		reqs := w.srv.Requests()
		for i := range reqs {
			switch reqs[i].Reply {
			case "carry implement":
				impl = &reqs[i]
			case "carry done":
				done = &reqs[i]
			}
		}
		if impl == nil || done == nil {
			t.Fatalf("the implementation did not run: %v", w.srv.Unused())
		}
		// The refusal's reason reached the model.
		refused := false
		for _, r := range done.LastUser().ToolResults {
			if strings.Contains(r.Content, "not in the plan") && strings.Contains(r.Content, "other.txt") {
				refused = true
			}
		}
		if !refused {
			t.Fatalf("the fence's reason did not reach the model: %+v", done.LastUser().ToolResults)
		}
		// The first request after the approval reminds of the steps;
		// the reminder costs at most 300 tokens (the fake counts four
		// bytes a token).
		text := impl.LastUser().Text
		i := strings.Index(text, "The approved plan: 0 of 3 steps done")
		if i < 0 {
			t.Fatalf("no step reminder after the approval:\n%s", text)
		}
		reminder := text[strings.LastIndex(text[:i], "<system-reminder>"):]
		reminder = reminder[:strings.Index(reminder, "</system-reminder>")+len("</system-reminder>")]
		tokens := len(reminder) / 4
		t.Logf("step reminder: %d bytes, about %d tokens", len(reminder), tokens)
		if tokens > 300 {
			t.Errorf("the step reminder costs %d tokens", tokens)
		}
		// Once a turn: the requests within the turn do not repeat it.
		if strings.Contains(done.LastUser().Text, "steps done") {
			t.Error("the step reminder repeats within the turn")
		}
		// Asked once about the drift, then the report: the skipped step
		// alone (the refused file changed nothing).
		last := reqs[len(reqs)-1]
		if last.Reply != "carry drift" || !strings.Contains(last.LastUser().Text, "Step 3 is not done") {
			t.Fatalf("the model was not asked about the drift: %s %q", last.Reply, last.LastUser().Text)
		}
		report := reportOf(t, o.stdout)
		if got := stepStatuses(report); got != "done done skipped" || report["unplanned"] != nil || report["untouched"] != nil {
			t.Fatalf("report: %v", report)
		}
		w.allUsed()
	})
}

// reportOf returns the plan_report event of a stream-json output.
func reportOf(t *testing.T, out string) map[string]any {
	t.Helper()
	var report map[string]any
	for _, l := range lines(t, out) {
		if l["event"] == "plan_report" {
			if report != nil {
				t.Fatal("two reports")
			}
			report = l
		}
	}
	if report == nil {
		t.Fatalf("no plan_report in:\n%s", out)
	}
	return report
}

// stepStatuses lists the statuses of a report's steps.
func stepStatuses(report map[string]any) string {
	var out []string
	steps, _ := report["steps"].([]any)
	for _, s := range steps {
		out = append(out, fmt.Sprint(s.(map[string]any)["status"]))
	}
	return strings.Join(out, " ")
}

func fmtJSON(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

// With someone to ask, accept-edits asks before an edit outside the
// plan, and the question says why; the planned file passes unasked.
func TestScopeFenceAsksOverTheControlChannel(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, carryReplies("add a greeting")...)
		s := w.start("--permission-mode", "plan")
		s.say("add a greeting")
		req := s.control("plan_exit")
		s.answer(req, map[string]any{"option": "accept-edits"})
		perm := s.control("can_use_tool")
		body := perm["request"].(map[string]any)
		if !strings.Contains(fmtJSON(body["input"]), "other.txt") || !strings.Contains(fmt.Sprint(body["reason"]), "not in the plan") {
			t.Fatalf("the question for the unplanned file: %v", body)
		}
		s.answer(perm, map[string]any{"behavior": "allow"})
		if res := s.result(); res["subtype"] != "success" {
			t.Fatalf("result %v", res)
		}
		if code := s.close(); code != 0 {
			t.Fatalf("exit %d", code)
		}
		var report map[string]any
		id := ""
		for _, m := range s.seen {
			if m["event"] == "plan_report" {
				report = m
			}
			if m["subtype"] == "init" {
				id = fmt.Sprint(m["session_id"])
			}
		}
		if w.read("greet.txt") != "hello\n" || w.read("other.txt") != "unplanned\n" {
			t.Fatalf("greet %q other %q", w.read("greet.txt"), w.read("other.txt"))
		}
		// Exactly the skipped step and the unplanned file.
		if got := stepStatuses(report); got != "done done skipped" || fmtJSON(report["unplanned"]) != `["other.txt"]` || report["untouched"] != nil {
			t.Fatalf("report: %v", report)
		}
		file := fmt.Sprint(report["report_file"])
		data, err := os.ReadFile(file)
		if err != nil || !strings.Contains(string(data), "[skipped] Check the greeting") || !strings.Contains(string(data), "- other.txt") {
			t.Fatalf("the report next to the plan (%s): %q %v", file, data, err)
		}
		// The same report for a session that is not open.
		o := w.mustRun(0, "", "plans", "check", id)
		if !strings.Contains(o.stdout, "[skipped] Check the greeting") || !strings.Contains(o.stdout, "- other.txt") {
			t.Fatalf("plans check:\n%s%s", o.stdout, o.stderr)
		}
	})
}

// planMode.scopeFence: false turns the fence off.
func TestScopeFenceSettingTurnsItOff(t *testing.T) {
	w := newWorld(t, "anthropic", carryReplies("add a greeting")...)
	writeConfigFile(t, filepath.Join(w.cfg, "settings.json"), `{"planMode":{"scopeFence":false}}`)
	w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--plan-approval", "accept-edits")
	if w.read("other.txt") != "unplanned\n" {
		t.Fatalf("the fence held with scopeFence false: %q", w.read("other.txt"))
	}
}

// Approve a pending plan in a later run, and undo its implementation:
// the turn is listed as any other, a rewind of both puts the files back
// byte for byte and the conversation back to the moment of approval,
// with the plan pending again.
func TestRewindUndoesAPlanApprovedOnResume(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			writePlanText("carry plan", carryPlan, fakemodel.Match{LastUser: "add a greeting"}),
			fakemodel.Reply{Name: "carry exit", When: fakemodel.Match{ToolResult: "Created"}, ToolCalls: []fakemodel.ToolCall{{Name: "ExitPlanMode", Input: map[string]any{}}}},
			fakemodel.Reply{Name: "implement", When: fakemodel.Match{LastUser: "approved your plan"}, ToolCalls: []fakemodel.ToolCall{
				{Name: "Read", Input: map[string]any{"file_path": "NOTES.md"}},
				{Name: "Write", Input: map[string]any{"file_path": "greet.txt", "content": "hello\n"}},
				{Name: "Write", Input: map[string]any{"file_path": "NOTES.md", "content": "notes on greetings\n"}},
				{Name: "Bash", Input: map[string]any{"command": "cat NOTES.md"}},
			}},
			fakemodel.Reply{Name: "implemented", When: fakemodel.Match{ToolResult: "greet.txt"}, Text: "Implemented."},
		)
		notes := "notes  \r\nline two\t\n\n"
		w.write("NOTES.md", notes)
		id := "5f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b"
		w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--session-id", id)
		o := w.mustRun(0, "", "-p", "--resume", id, "--approve-plan", "accept-edits", "--output-format", "json")
		res := lastResult(t, o.stdout)
		turn, _ := res["turn"].(float64)
		if turn == 0 || w.read("greet.txt") != "hello\n" || !strings.Contains(w.read("NOTES.md"), "greetings") {
			reqs := w.srv.Requests()
			t.Fatalf("not implemented (turn %v): greet %q notes %q\n%+v", res["turn"], w.read("greet.txt"), w.read("NOTES.md"), reqs[len(reqs)-1].LastUser().ToolResults)
		}
		list := w.mustRun(0, "", "-p", "--resume", id, "--rewind-to", "list").stdout
		if strings.Contains(list, "files only") || !strings.Contains(list, "approved plan's implementation") ||
			!strings.Contains(list, fmt.Sprintf("%d  ", int(turn))) {
			t.Fatalf("the implementation turn is not listed as one to rewind:\n%s", list)
		}
		o = w.mustRun(0, "", "-p", "--resume", id, "--rewind-to", fmt.Sprint(int(turn)), "--rewind", "both")
		if w.read("greet.txt") != "<missing>" || w.read("NOTES.md") != notes {
			t.Fatalf("the files are not as before: greet %q notes %q\n%s%s", w.read("greet.txt"), w.read("NOTES.md"), o.stdout, o.stderr)
		}
		// The plan waits again: a prompt is refused until it is answered,
		// and answering it continues from the moment of approval.
		if o := w.run("", "-p", "something else", "--resume", id); o.code == 0 || !strings.Contains(o.stderr, "waiting for approval") {
			t.Fatalf("the plan is not pending again: %d %s", o.code, o.stderr)
		}
		w.srv.Add(fakemodel.Reply{Name: "again", When: fakemodel.Match{LastUser: "approved your plan"}, Text: "Approved again."},
			fakemodel.Reply{Name: "drift", When: fakemodel.Match{LastUser: "Before you finish"}, Text: "Nothing done yet."})
		o = w.mustRun(0, "", "-p", "--resume", id, "--approve-plan", "manual", "--output-format", "json")
		reqs := w.srv.Requests()
		last := reqs[len(reqs)-2]
		if last.Reply != "again" || last.ContainsText("cat NOTES.md") || last.ContainsText("hello\\n") || last.ContainsText("Implemented.") {
			t.Fatalf("the next request holds the undone implementation (%s): %d messages", last.Reply, len(last.Messages))
		}
		if lastResult(t, o.stdout)["permission_mode"] != "default" {
			t.Fatalf("the second approval: %s", o.stdout)
		}
		w.allUsed()
	})
}

// A planned file changed by hand between the plan and its approval in a
// later run is named before anything runs; a dialog offers re-planning.
func TestProvenanceNamesPlannedFilesChangedSinceThePlan(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, carryReplies("add a greeting")...)
		w.write("NOTES.md", "first\n")
		id := "3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a98"
		w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--session-id", id)
		w.write("NOTES.md", "changed by hand\n")
		o := w.mustRun(0, "", "-p", "--resume", id, "--approve-plan", "accept-edits", "--output-format", "stream-json", "--verbose")
		notice, firstRun := -1, -1
		for i, l := range lines(t, o.stdout) {
			if l["event"] == "notice" && strings.Contains(fmt.Sprint(l["text"]), "files it names changed: NOTES.md") && notice < 0 {
				notice = i
			}
			if (l["event"] == "tool_started" || l["type"] == "assistant") && firstRun < 0 {
				firstRun = i
			}
		}
		if notice < 0 || firstRun >= 0 && notice > firstRun {
			t.Fatalf("the change was not named before anything ran (notice at %d, first run at %d):\n%s", notice, firstRun, o.stdout)
		}
		if strings.Count(o.stdout, "files it names changed") != 1 {
			t.Errorf("the change is named more than once:\n%s", o.stdout)
		}
	})
}

// Every revision of a plan is a version: the model's writes, a feedback
// round, the user's edit at approval; plans log lists them with their
// causes and plans diff compares any two.
func TestPlanVersionsLogAndDiff(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		v1 := "# Greet\n\n1. Say hello.\n"
		v2 := "# Greet\n\n1. Say hello.\n2. Mention the date.\n"
		v3 := "# Greet\n\n1. Say hello warmly.\n2. Mention the date.\n"
		w := newWorld(t, api,
			writePlanText("v1", v1, fakemodel.Match{LastUser: "add a greeting"}),
			fakemodel.Reply{Name: "exit v1", When: fakemodel.Match{ToolResult: "Created"}, ToolCalls: []fakemodel.ToolCall{{Name: "ExitPlanMode", Input: map[string]any{}}}},
			fakemodel.Reply{Name: "v2", When: fakemodel.Match{LastUser: "mention the date"}, ToolCalls: []fakemodel.ToolCall{
				{Name: "Write", InputFunc: func(r *fakemodel.Request) any { return map[string]any{"file_path": planPath(r), "content": v2} }},
				{Name: "ExitPlanMode", Input: map[string]any{}},
			}},
			fakemodel.Reply{Name: "implement", When: fakemodel.Match{LastUser: "approved your plan"}, Text: "Done."},
		)
		s := w.start("--permission-mode", "plan")
		s.say("add a greeting")
		s.answer(s.control("plan_exit"), map[string]any{"option": "reject", "feedback": "please mention the date"})
		s.answer(s.control("plan_exit"), map[string]any{"option": "accept-edits", "plan": v3})
		if res := s.result(); res["subtype"] != "success" {
			t.Fatalf("result %v", res)
		}
		if code := s.close(); code != 0 {
			t.Fatalf("exit %d", code)
		}
		log := w.mustRun(0, "", "plans", "log").stdout
		want := []string{"1  ", "written by the model, then sent back with feedback", "2  ", "written by the model", "3  ", "edited by the user and approved"}
		for _, s := range want {
			if !strings.Contains(log, s) {
				t.Fatalf("plans log lacks %q:\n%s", s, log)
			}
		}
		if strings.Contains(log, "4  ") {
			t.Fatalf("more versions than revisions:\n%s", log)
		}
		d := w.mustRun(0, "", "plans", "diff").stdout
		if !strings.Contains(d, "-1. Say hello.") || !strings.Contains(d, "+1. Say hello warmly.") || strings.Contains(d, "+2. Mention the date.") {
			t.Fatalf("plans diff (last two):\n%s", d)
		}
		d = w.mustRun(0, "", "plans", "diff", "", "1", "2").stdout
		if !strings.Contains(d, "+2. Mention the date.") {
			t.Fatalf("plans diff 1 2:\n%s", d)
		}
		if o := w.run("", "plans", "diff", "", "1", "9"); o.code != 2 || !strings.Contains(o.stderr, "no version 9") {
			t.Fatalf("a version that is not: %d %s", o.code, o.stderr)
		}
	})
}

// "Approve and stop here" approves and sets the mode, and no request
// follows until the user prompts; planMode.returnAfterImplementation
// turns plan mode back on when the implementation ends.
func TestApproveAndStopThenReturnToPlanMode(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			writePlan(fakemodel.Match{LastUser: "add a greeting"}),
			exitPlan,
		)
		writeConfigFile(t, filepath.Join(w.cfg, "settings.json"), `{"planMode":{"returnAfterImplementation":true}}`)
		id := "2b1a0f9e-8d7c-4b6a-9e5d-3c2b1a0f9e8d"
		o := w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--plan-approval", "approve-stop", "--session-id", id, "--output-format", "json")
		res := lastResult(t, o.stdout)
		if res["permission_mode"] != "acceptEdits" || res["stop_reason"] != "plan_approved" || w.read("hello.txt") != "<missing>" {
			t.Fatalf("approve and stop: %v, hello %q", res, w.read("hello.txt"))
		}
		for _, r := range w.srv.Requests() {
			if r.ContainsText("approved your plan and will tell you") {
				t.Fatalf("a request followed the approval: %s", r.Reply)
			}
		}
		w.allUsed()
		w.srv.Add(implement("go ahead"), finished)
		o = w.mustRun(0, "", "-p", "go ahead", "--resume", id, "--output-format", "json")
		if w.read("hello.txt") != "hello\n" || lastResult(t, o.stdout)["permission_mode"] != "plan" {
			t.Fatalf("after the implementation: hello %q\n%s", w.read("hello.txt"), o.stdout)
		}
	})
}
