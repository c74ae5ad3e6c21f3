package e2e

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// editedPlan is the plan a PermissionRequest hook approves in place of the
// model's.
const editedPlan = "# Greeting\n\n1. Create hello.txt saying hello.\n2. Verify with cat hello.txt.\n3. Reviewed by the hook.\n"

// transitionScript is a PlanTransition hook that tells the user which
// transition it saw.
const transitionScript = `in=$(cat)
for t in entered exit_requested approved rejected exited; do
  case "$in" in *"\"transition\":\"$t\""*) printf '{"systemMessage":"plan transition seen: %s"}' "$t";; esac
done`

// A PermissionRequest hook approves ExitPlanMode in Claude Code's shape,
// with an edited plan and acceptEdits: the plan file holds the edited plan,
// the model is told it was edited, the implementation runs in
// acceptEdits. The same hook allows everything else it is asked about,
// and still the plan-mode write of a project file is refused. The
// PlanTransition hooks see plan mode entered, its exit requested and the
// plan approved.
func TestPermissionRequestHookApprovesPlan(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			writePlan(fakemodel.Match{LastUser: "add a greeting"}),
			exitPlan,
			implement("Reviewed by the hook"),
			finished,
		)
		script := hookScript(t, w, "approve.sh", `in=$(cat)
case "$in" in
  *'"hook_event_name":"PermissionRequest"'*'"tool_name":"ExitPlanMode"'*'Verify with cat hello.txt'*)
    printf '%s' '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"plan":"`+strings.ReplaceAll(editedPlan, "\n", `\n`)+`"},"updatedPermissions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}]}}}';;
  *'"hook_event_name":"PermissionRequest"'*)
    printf '%s' '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}';;
esac`)
		trans := hookScript(t, w, "transitions.sh", transitionScript)
		w.userSettings(hooksSettings(t, map[string]hookGroup{
			"PermissionRequest": {Hooks: command(script)},
			"PlanTransition":    {Hooks: command(trans)},
		}, nil))
		o := w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--output-format", "stream-json")
		res := lastResult(t, o.stdout)
		if res["subtype"] != "success" || res["permission_mode"] != "acceptEdits" || res["result"] != "Implemented the plan." {
			t.Fatalf("result %v\nstderr %s", res, o.stderr)
		}
		if w.read("hello.txt") != "hello\n" {
			t.Fatalf("hello.txt = %q", w.read("hello.txt"))
		}
		reqs := w.srv.Requests()
		// The early write in plan mode was refused though the hook
		// allows every call it is asked about.
		early := toolResults(reqs[1])
		if len(early) != 2 || !failed(early[1]) {
			t.Fatalf("the plan-mode write of a project file was not refused: %+v", early)
		}
		approved := toolResults(reqs[2])
		if len(approved) != 1 || !strings.Contains(approved[0].Content, "edited by the user") || !strings.Contains(approved[0].Content, "3. Reviewed by the hook.") {
			t.Fatalf("the model was not given the hook's plan: %+v", approved)
		}
		planFile := fmt.Sprint(res["plan_file"])
		if planFile == "" || planFile == "<nil>" {
			planFile = planFileFrom(t, o.stdout)
		}
		if data, _ := os.ReadFile(planFile); string(data) != editedPlan {
			t.Fatalf("plan file %s holds %q, want the hook's plan", planFile, data)
		}
		for _, tr := range []string{"entered", "exit_requested", "approved"} {
			if !strings.Contains(o.stdout, "plan transition seen: "+tr) {
				t.Errorf("no PlanTransition hook saw %q", tr)
			}
		}
		w.allUsed()
	})
}

// planFileFrom finds the plan file a run's events name.
func planFileFrom(t *testing.T, stdout string) string {
	t.Helper()
	for _, m := range lines(t, stdout) {
		if p, ok := m["plan_file"].(string); ok && p != "" {
			return p
		}
	}
	t.Fatal("no event names the plan file")
	return ""
}

// A PermissionRequest hook that denies ExitPlanMode sends the plan back:
// the model's next request carries the hook's message, plan mode goes
// on, nothing is implemented, and a PlanTransition hook sees the
// rejection.
func TestPermissionRequestHookRejectsPlan(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			writePlan(fakemodel.Match{LastUser: "add a greeting"}),
			exitPlan,
			fakemodel.Reply{Name: "revise", When: fakemodel.Match{ToolResult: "Split step 2 in two"}, Text: "I will revise the plan."},
		)
		script := hookScript(t, w, "reject.sh", `cat >/dev/null
printf '%s' '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"Split step 2 in two."}}}'`)
		trans := hookScript(t, w, "transitions.sh", transitionScript)
		w.userSettings(hooksSettings(t, map[string]hookGroup{
			"PermissionRequest": {Matcher: "ExitPlanMode", Hooks: command(script)},
			"PlanTransition":    {Hooks: command(trans)},
		}, nil))
		o := w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--output-format", "stream-json")
		res := lastResult(t, o.stdout)
		if res["result"] != "I will revise the plan." || res["permission_mode"] != "plan" {
			t.Fatalf("result %v\nstderr %s", res, o.stderr)
		}
		reqs := w.srv.Requests()
		back := toolResults(reqs[len(reqs)-1])
		if len(back) != 1 || !strings.Contains(back[0].Content, "Split step 2 in two.") {
			t.Fatalf("the hook's message did not reach the model: %+v", back)
		}
		if w.read("hello.txt") != "<missing>" {
			t.Fatal("something was implemented after a rejection")
		}
		if !strings.Contains(o.stdout, "plan transition seen: rejected") {
			t.Error("no PlanTransition hook saw the rejection")
		}
		w.allUsed()
	})
}

// Outside plan mode, with nobody to ask, a PermissionRequest hook's allow
// is what lets a write through; its deny refuses one with its message.
// The hooks of an untrusted project's settings do not run.
func TestPermissionRequestHookAnswersToolAsks(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, calls("write two", writeCall("yes.txt", "x"), writeCall("no.txt", "x"))...)
		script := hookScript(t, w, "asks.sh", `in=$(cat)
case "$in" in
  *no.txt*) printf '%s' '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not that one"}}}';;
  *) printf '%s' '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}';;
esac`)
		w.userSettings(hooksSettings(t, map[string]hookGroup{"PermissionRequest": {Matcher: "Write", Hooks: command(script)}}, nil))
		w.mustRun(0, "", "-p", "write two")
		res := lastResults(t, w, 2)
		if failed(res[0]) || w.read("yes.txt") != "x" {
			t.Errorf("the hook's allow did not answer the question: %s", res[0].Content)
		}
		if !failed(res[1]) || !strings.Contains(res[1].Content, "not that one") || w.read("no.txt") != "<missing>" {
			t.Errorf("the hook's deny did not refuse: %s", res[1].Content)
		}
		w.allUsed()
	})
}

// An untrusted project's PermissionRequest hook does not answer the plan:
// a repository cannot approve its own plan. Trusted, the same hook does.
func TestUntrustedPermissionRequestHookDoesNotRun(t *testing.T) {
	w := newWorld(t, "openai", writePlan(fakemodel.Match{LastUser: "add a greeting"}), exitPlan)
	script := hookScript(t, w, "approve-all.sh", `cat >/dev/null
printf '%s' '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedPermissions":[{"type":"setMode","mode":"acceptEdits"}]}}}'`)
	w.write(".ponder/settings.json", hooksSettings(t, map[string]hookGroup{"PermissionRequest": {Hooks: command(script)}}, nil))
	o := w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--output-format", "json")
	if res := lastResult(t, o.stdout); res["subtype"] != "plan_pending" || res["permission_mode"] != "plan" {
		t.Fatalf("an untrusted project's hook answered the plan: %v", res)
	}
	w.allUsed()

	trusted := newWorld(t, "openai", writePlan(fakemodel.Match{LastUser: "add a greeting"}), exitPlan, implement("approved your plan"), finished)
	trusted.write(".ponder/settings.json", hooksSettings(t, map[string]hookGroup{"PermissionRequest": {Hooks: command(script)}}, nil))
	o = trusted.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--output-format", "json", "--trust")
	if res := lastResult(t, o.stdout); res["result"] != "Implemented the plan." || res["permission_mode"] != "acceptEdits" {
		t.Fatalf("a trusted project's hook did not answer the plan: %v", res)
	}
	trusted.allUsed()
}
