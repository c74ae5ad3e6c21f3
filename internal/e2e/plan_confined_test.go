package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// In plan mode a command the classifier cannot prove read-only is asked
// about ("run it in the read-only sandbox?"). A hostile model's writes,
// approved by the user, run confined: each fails in the kernel and
// nothing in the project changes. "Yes for this prefix" counts for the
// rest of the session in plan mode.
func TestPlanAsksThenRunsConfined(t *testing.T) {
	haveSandbox(t, "landlock")
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		w.write("notes.txt", "apple\n")
		w.git("init", "-q")
		w.git("add", ".")
		w.git("commit", "-qm", "start")
		writers := []string{
			"touch made.txt",
			"sed -i s/apple/pear/ notes.txt",
			"git -c user.name=m -c user.email=m@example.com commit --allow-empty -qm sneaky",
		}
		calls := []fakemodel.ToolCall{}
		for _, c := range writers {
			calls = append(calls, bashCall(c))
		}
		// The same prefix again: answered already.
		calls = append(calls, bashCall("touch made.txt"))
		w.srv.Add(callsThenDone("try writing", calls)...)
		sw := &sandboxWorld{world: w, base: w.dir}
		before := sw.deepSnapshot(t)

		s := w.start("--permission-mode", "plan")
		s.say("try writing")
		for i, c := range writers {
			req := s.control("can_use_tool")
			body := req["request"].(map[string]any)
			input, _ := body["input"].(map[string]any)
			if input["command"] != c {
				t.Fatalf("question %d is about %v, want %q", i, input["command"], c)
			}
			reason := fmt.Sprint(body["reason"])
			if !strings.Contains(reason, "read-only sandbox") || !strings.Contains(reason, "planMode.commands") {
				t.Fatalf("question %d reason %q", i, reason)
			}
			s.answer(req, map[string]any{"behavior": "allow", "always": i == 0})
		}
		res := s.result()
		if res["permission_mode"] != "plan" {
			t.Fatalf("result %v", res)
		}
		if code := s.close(); code != 0 {
			t.Fatalf("exit %d", code)
		}
		asked := 0
		for _, m := range s.seen {
			if m["type"] == "control_request" {
				asked++
			}
		}
		if asked != len(writers) {
			t.Errorf("%d questions, want %d (the repeated prefix is answered)", asked, len(writers))
		}
		results := w.lastResults(len(calls))
		for i, r := range results {
			if strings.Contains(r.Content, "refused") || !failed(r) {
				t.Errorf("call %d: want a run whose write failed, got %q", i, r.Content)
			}
		}
		if diff := diffSnapshots(before, sw.deepSnapshot(t)); len(diff) > 0 {
			t.Errorf("confined writers changed the project:\n%s", strings.Join(diff, "\n"))
		}
		if _, err := os.Stat(filepath.Join(w.dir, "made.txt")); err == nil {
			t.Error("made.txt was created")
		}
	})
}

// Headless with nobody to ask, plan mode refuses as before, and the
// refusal tells how the user can allow the command.
func TestPlanRefusesUnaskedHeadless(t *testing.T) {
	haveSandbox(t, "landlock")
	w := newWorld(t, "anthropic")
	w.srv.Add(callsThenDone("try writing", []fakemodel.ToolCall{bashCall("touch made.txt")})...)
	w.mustRun(0, "", "-p", "try writing", "--permission-mode", "plan")
	r := w.lastResults(1)[0]
	if !failed(r) || !strings.Contains(r.Content, "nobody can give it") || !strings.Contains(r.Content, "planMode.commands") {
		t.Fatalf("result %q", r.Content)
	}
	if _, err := os.Stat(filepath.Join(w.dir, "made.txt")); err == nil {
		t.Error("made.txt was created")
	}
}
