package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// The approval carries more than yes or no: comments on lines of the plan,
// the model that implements it, and the permissions it grants. These tests
// drive the real binary and read the evidence from disk and from the
// requests the fake model received.

const (
	planV1 = "# Greeting\n\n1. Create hello.txt saying hello.\n2. Build with touch built.txt.\n"
	planV2 = "# Greeting\n\n1. Create hello.txt saying hello and bonjour.\n2. Build with touch built.txt.\n3. Check both words are there.\n"
)

// permsAsked are the permissions the plan asks for: one inside the
// project, one that may delete files anywhere.
var permsAsked = []map[string]any{
	{"rule": "Bash(touch built.txt)", "reason": "the build step"},
	{"rule": "Bash(rm:*)", "reason": "clean up"},
}

func writePlanText(name, text string, when fakemodel.Match) fakemodel.Reply {
	return fakemodel.Reply{Name: name, When: when, ToolCalls: []fakemodel.ToolCall{{Name: "Write", InputFunc: func(r *fakemodel.Request) any {
		return map[string]any{"file_path": planPath(r), "content": text}
	}}}}
}

func exitWithPerms(name string, when fakemodel.Match) fakemodel.Reply {
	return fakemodel.Reply{Name: name, When: when, ToolCalls: []fakemodel.ToolCall{{Name: "ExitPlanMode", Input: map[string]any{"permissions": permsAsked}}}}
}

func TestStreamJSONAnnotationsModelAndGrants(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			writePlanText("plan v1", planV1, fakemodel.Match{LastUser: "add a greeting"}),
			exitWithPerms("exit v1", fakemodel.Match{ToolResult: "Created"}),
			writePlanText("plan v2", planV2, fakemodel.Match{ToolResult: "Comment: say bonjour too"}),
			exitWithPerms("exit v2", fakemodel.Match{ToolResult: "Updated"}),
			fakemodel.Reply{Name: "implement", When: fakemodel.Match{Model: "impl-model", ToolResult: "granted these permissions"},
				ToolCalls: []fakemodel.ToolCall{
					{Name: "Bash", Input: map[string]any{"command": "touch built.txt"}},
					{Name: "Write", Input: map[string]any{"file_path": "hello.txt", "content": "hello\nbonjour\n"}},
				}},
			fakemodel.Reply{Name: "done", When: fakemodel.Match{Model: "impl-model", ToolResult: "hello.txt ("}, Text: "Implemented."},
			fakemodel.Reply{Name: "resumed", When: fakemodel.Match{Model: "impl-model", LastUser: "anything left?"}, Text: "Nothing."},
		)
		s := w.start("--permission-mode", "plan")
		s.say("add a greeting")

		// First version: comments on line 3 send it back.
		req := s.control("plan_exit")
		body := req["request"].(map[string]any)
		perms := fmt.Sprint(body["permissions"])
		if !strings.Contains(perms, "Bash(touch built.txt)") || !strings.Contains(perms, "outside:true") {
			t.Fatalf("plan_exit permissions %s", perms)
		}
		if _, ok := body["previous_plan"]; ok {
			t.Fatalf("a first plan has no previous version: %v", body)
		}
		// A comment on a line the plan does not have is refused, and the
		// question stays open.
		s.answer(req, map[string]any{"annotations": []map[string]any{{"line": 99, "comment": "x"}}})
		s.next("the refusal", func(m map[string]any) bool {
			return m["event"] == "notice" && strings.Contains(fmt.Sprint(m["text"]), "line 99")
		})
		// So is a grant of a rule the plan did not ask for.
		s.answer(req, map[string]any{"option": "manual", "grant": []string{"Bash"}})
		s.next("the refusal", func(m map[string]any) bool {
			return m["event"] == "notice" && strings.Contains(fmt.Sprint(m["text"]), "did not ask for")
		})
		s.answer(req, map[string]any{"annotations": []map[string]any{{"line": 3, "comment": "say bonjour too"}}})

		// Second version: what changed is marked; approve with another
		// model and one of the two rules.
		req = s.control("plan_exit")
		body = req["request"].(map[string]any)
		if body["previous_plan"] != planV1 || fmt.Sprint(body["changed_lines"]) != "[3 5]" {
			t.Fatalf("revision: previous %q changed %v", body["previous_plan"], body["changed_lines"])
		}
		if models := fmt.Sprint(body["models"]); models == "[]" || models == "<nil>" {
			t.Fatalf("no models offered: %v", body)
		}
		s.answer(req, map[string]any{"option": "manual", "model": "impl-model", "grant": []string{"Bash(touch built.txt)"}})

		// The granted command runs without a question; the edit asks, and
		// the question shows its diff.
		perm := s.control("can_use_tool")
		pr := perm["request"].(map[string]any)
		if pr["tool_name"] != "Write" || pr["path"] != "hello.txt" || !strings.Contains(fmt.Sprint(pr["diff"]), "+bonjour") {
			t.Fatalf("edit question %v", pr)
		}
		s.answer(perm, map[string]any{"behavior": "allow"})
		res := s.result()
		if res["result"] != "Implemented." || res["permission_mode"] != "default" {
			t.Fatalf("result %v", res)
		}
		if code := s.close(); code != 0 {
			t.Fatalf("exit %d", code)
		}
		if _, err := os.Stat(filepath.Join(w.dir, "built.txt")); err != nil {
			t.Fatal("the granted command did not run")
		}
		if w.read("hello.txt") != "hello\nbonjour\n" {
			t.Fatalf("hello.txt = %q", w.read("hello.txt"))
		}
		for _, m := range s.seen {
			if m["type"] == "control_request" && fmt.Sprint(m["request"].(map[string]any)["tool_name"]) == "Bash" {
				t.Fatal("the granted command was asked about")
			}
		}
		// The model saw the comment under the line it is about.
		found := false
		for _, r := range w.srv.Requests() {
			for _, tr := range toolResults(r) {
				if strings.Contains(tr.Content, "Line 3:\n> 1. Create hello.txt saying hello.\nComment: say bonjour too") {
					found = true
				}
			}
		}
		if !found {
			t.Fatal("the model never saw the comment anchored to its line")
		}
		// The approved plan's event names the model and the grant.
		evs := fmt.Sprint(s.seen)
		if !strings.Contains(evs, "granted:[Bash(touch built.txt)]") || !strings.Contains(evs, "model:impl-model") {
			t.Fatalf("plan_approved lacks model or grant: %s", evs)
		}

		// The model choice survives a resume.
		id := fmt.Sprint(res["session_id"])
		o := w.mustRun(0, "", "-p", "--resume", id, "anything left?", "--output-format", "json")
		if r := lastResult(t, o.stdout); r["result"] != "Nothing." {
			t.Fatalf("resumed %v", r)
		}
		w.allUsed()
	})
}

// Unattended approval grants no command: a command runs what the
// project's files say, which the plan may change, so both of the model's
// commands still need a yes that nobody gives, and nothing changes.
func TestUnattendedApprovalGrantsOnlyRulesInsideTheProject(t *testing.T) {
	w := newWorld(t, "anthropic",
		writePlanText("plan", planV1, fakemodel.Match{LastUser: "add a greeting"}),
		exitWithPerms("exit", fakemodel.Match{ToolResult: "Created"}),
		fakemodel.Reply{Name: "implement", When: fakemodel.Match{ToolResult: "approved"},
			ToolCalls: []fakemodel.ToolCall{
				{Name: "Bash", Input: map[string]any{"command": "touch built.txt"}},
				{Name: "Bash", Input: map[string]any{"command": "rm keep.txt"}},
			}},
		fakemodel.Reply{Name: "done", When: fakemodel.Match{ToolResult: "needs approval"}, Text: "Partly done."},
	)
	w.write("keep.txt", "precious\n")
	o := w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--plan-approval", "manual")
	if strings.TrimSpace(o.stdout) != "Partly done." {
		t.Fatalf("stdout %q stderr %q", o.stdout, o.stderr)
	}
	if _, err := os.Stat(filepath.Join(w.dir, "built.txt")); err == nil {
		t.Fatal("a command the plan asked for was granted without the user's yes")
	}
	if w.read("keep.txt") != "precious\n" {
		t.Fatal("a rule reaching outside the project was granted without being named")
	}
	w.allUsed()
}

// Resuming headless: --plan-feedback sends comments from a file; then
// --approve-plan with --model picks the implementer.
func TestResumeWithPlanFeedbackFileThenApproveWithModel(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			writePlanText("plan v1", planV1, fakemodel.Match{LastUser: "add a greeting"}),
			fakemodel.Reply{Name: "exit v1", When: fakemodel.Match{ToolResult: "Created"}, ToolCalls: []fakemodel.ToolCall{{Name: "ExitPlanMode"}}},
			// A new process: the model reads its plan again before
			// rewriting it.
			fakemodel.Reply{Name: "read plan", When: fakemodel.Match{ToolResult: "Comment: say bonjour too"}, ToolCalls: []fakemodel.ToolCall{{Name: "Read",
				InputFunc: func(r *fakemodel.Request) any { return map[string]any{"file_path": planPath(r)} }}}},
			writePlanText("plan v2", planV2, fakemodel.Match{ToolResult: "Build with touch"}),
			fakemodel.Reply{Name: "exit v2", When: fakemodel.Match{ToolResult: "Updated"}, ToolCalls: []fakemodel.ToolCall{{Name: "ExitPlanMode"}}},
			fakemodel.Reply{Name: "implement", When: fakemodel.Match{Model: "impl-model", ToolResult: "impl-model to implement"},
				ToolCalls: []fakemodel.ToolCall{{Name: "Write", Input: map[string]any{"file_path": "hello.txt", "content": "hello\nbonjour\n"}}}},
			fakemodel.Reply{Name: "done", When: fakemodel.Match{Model: "impl-model", ToolResult: "hello.txt ("}, Text: "Implemented."},
		)
		o := w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--output-format", "json")
		id := fmt.Sprint(lastResult(t, o.stdout)["session_id"])
		fb := filepath.Join(t.TempDir(), "feedback.md")
		os.WriteFile(fb, []byte("Good start.\n\n- line 3: say bonjour too\n- line 99: no such line\n"), 0o644)
		// A comment on a line the plan lacks is a usage error; nothing
		// is sent.
		if o := w.run("", "-p", "--resume", id, "--plan-feedback", fb); o.code != 2 || !strings.Contains(o.stderr, "line 99") {
			t.Fatalf("bad feedback file: exit %d %q", o.code, o.stderr)
		}
		os.WriteFile(fb, []byte("Good start.\n\n- line 3: say bonjour too\n"), 0o644)
		o = w.mustRun(0, "", "-p", "--resume", id, "--plan-feedback", fb, "--output-format", "json")
		if r := lastResult(t, o.stdout); r["subtype"] != "plan_pending" || r["plan"] != planV2 {
			t.Fatalf("after feedback %v", r)
		}
		o = w.mustRun(0, "", "-p", "--resume", id, "--approve-plan", "accept-edits", "--model", "impl-model", "--output-format", "json")
		if r := lastResult(t, o.stdout); r["result"] != "Implemented." {
			t.Fatalf("after approval %v", r)
		}
		// The choice is in the transcript.
		data, _ := os.ReadFile(filepath.Join(transcriptDir(t, w), id+".jsonl"))
		if !strings.Contains(string(data), `"type":"model"`) || !strings.Contains(string(data), `"model":"impl-model"`) {
			t.Fatal("the model choice is not recorded in the transcript")
		}
		w.allUsed()
	})
}

// transcriptDir finds the project's transcript directory.
func transcriptDir(t *testing.T, w *world) string {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(w.cfg, "projects", "*"))
	if len(matches) != 1 {
		t.Fatalf("transcript directories %v", matches)
	}
	return matches[0]
}

// A plan left pending says what approving it would grant: in the json
// result, and in words on standard error.
func TestPendingPlanListsItsPermissions(t *testing.T) {
	w := newWorld(t, "openai",
		writePlanText("plan", planV1, fakemodel.Match{LastUser: "add a greeting"}),
		exitWithPerms("exit", fakemodel.Match{ToolResult: "Created"}),
	)
	o := w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--output-format", "json")
	res := lastResult(t, o.stdout)
	if res["subtype"] != "plan_pending" || !strings.Contains(fmt.Sprint(res["permissions"]), "Bash(touch built.txt)") {
		t.Fatalf("result %v", res)
	}
	w2 := newWorld(t, "anthropic",
		writePlanText("plan", planV1, fakemodel.Match{LastUser: "add a greeting"}),
		exitWithPerms("exit", fakemodel.Match{ToolResult: "Created"}),
	)
	o = w2.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan")
	if !strings.Contains(o.stderr, "Bash(touch built.txt) (the build step)") || !strings.Contains(o.stderr, "Bash(rm:*) (clean up) — needs its own yes (may write files anywhere") {
		t.Fatalf("stderr %q", o.stderr)
	}
}
