package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// editTurn scripts a turn that reads a.txt and b.txt, rewrites the first,
// edits the second, creates c.txt and runs a shell command that writes
// d.txt.
func editTurn(prompt string) []fakemodel.Reply {
	return []fakemodel.Reply{
		{Name: "read", When: fakemodel.Match{LastUser: prompt}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Read", Input: map[string]any{"file_path": "a.txt"}},
			{Name: "Read", Input: map[string]any{"file_path": "b.txt"}},
		}},
		{Name: "edit", When: fakemodel.Match{ToolResult: "A0"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Write", Input: map[string]any{"file_path": "a.txt", "content": "A1\n"}},
			{Name: "Edit", Input: map[string]any{"file_path": "b.txt", "old_string": "B0", "new_string": "B1"}},
			{Name: "Write", Input: map[string]any{"file_path": "c.txt", "content": "C1\n"}},
			{Name: "Bash", Input: map[string]any{"command": "touch d.txt"}},
		}},
		{Name: "edited", When: fakemodel.Match{ToolResult: "c.txt"}, Text: "Edited both."},
	}
}

func TestRewindRestoresFilesAndConversation(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, editTurn("edit both")...)
		w.write("a.txt", "A0\n")
		w.write("b.txt", "B0\n")
		id := "6a5e8f71-9203-4ebf-a0d1-4c5d6e7f8091"
		w.mustRun(0, "", "-p", "edit both", "--permission-mode", "acceptEdits", "--allowedTools", "Bash(touch:*)", "--session-id", id)
		if w.read("a.txt") != "A1\n" || w.read("b.txt") != "B1\n" || w.read("c.txt") != "C1\n" || w.read("d.txt") != "" {
			t.Fatalf("the turn did not edit: a %q b %q c %q d %q", w.read("a.txt"), w.read("b.txt"), w.read("c.txt"), w.read("d.txt"))
		}
		w.srv.Add(fakemodel.Reply{Name: "second", When: fakemodel.Match{LastUser: "second turn"}, Text: "Nothing to do."})
		w.mustRun(0, "", "-p", "second turn", "--resume", id)

		o := w.mustRun(0, "", "-p", "--resume", id, "--rewind-to", "list")
		if !strings.Contains(o.stdout, "1  ") || !strings.Contains(o.stdout, "edit both") || !strings.Contains(o.stdout, "touch d.txt") || !strings.Contains(o.stdout, "second turn") {
			t.Fatalf("turn list:\n%s", o.stdout)
		}

		o = w.mustRun(0, "", "-p", "--resume", id, "--rewind-to", "1")
		if w.read("a.txt") != "A0\n" || w.read("b.txt") != "B0\n" || w.read("c.txt") != "<missing>" {
			t.Fatalf("after the rewind: a %q b %q c %q\n%s", w.read("a.txt"), w.read("b.txt"), w.read("c.txt"), o.stdout)
		}
		// What the shell command did is named, not silently kept.
		if w.read("d.txt") != "" || !strings.Contains(o.stdout, "Not restorable") || !strings.Contains(o.stdout, "touch d.txt") {
			t.Fatalf("the shell command's change is not named:\n%s", o.stdout)
		}

		// The next turn continues from before turn 1: the model sees
		// neither earlier prompt.
		w.srv.Add(fakemodel.Reply{Name: "after", When: fakemodel.Match{LastUser: "start over"}, Text: "Fresh."})
		w.mustRun(0, "", "-p", "start over", "--resume", id)
		reqs := w.srv.Requests()
		last := reqs[len(reqs)-1]
		if !last.ContainsText("start over") || last.ContainsText("edit both") || last.ContainsText("second turn") {
			t.Fatalf("the conversation was not rewound: %d messages", len(last.Messages))
		}
		w.allUsed()
	})
}

// Plan mode changes no file, and neither does a rewind in it; the
// conversation alone may be rewound there.
func TestRewindInPlanModeLeavesFilesAlone(t *testing.T) {
	w := newWorld(t, "anthropic", editTurn("edit both")...)
	w.write("a.txt", "A0\n")
	w.write("b.txt", "B0\n")
	id := "7b6f9082-a314-4fc0-b1e2-5d6e7f8091a2"
	w.mustRun(0, "", "-p", "edit both", "--permission-mode", "acceptEdits", "--allowedTools", "Bash(touch:*)", "--session-id", id)
	o := w.mustRun(2, "", "-p", "--resume", id, "--permission-mode", "plan", "--rewind-to", "1")
	if w.read("a.txt") != "A1\n" || !strings.Contains(o.stderr, "plan mode") {
		t.Fatalf("a rewind in plan mode wrote files (a %q):\n%s", w.read("a.txt"), o.stderr)
	}
	w.mustRun(0, "", "-p", "--resume", id, "--permission-mode", "plan", "--rewind-to", "1", "--rewind", "conversation")
	if w.read("a.txt") != "A1\n" {
		t.Fatal("a conversation rewind wrote files")
	}
}

// A file replaced by a link out of the project after ponder changed it
// is not written through.
func TestRewindDoesNotFollowALinkOutOfTheProject(t *testing.T) {
	w := newWorld(t, "anthropic", editTurn("edit both")...)
	w.write("a.txt", "A0\n")
	w.write("b.txt", "B0\n")
	id := "8c70a193-b425-4ad1-82f3-6e7f8091a2b3"
	w.mustRun(0, "", "-p", "edit both", "--permission-mode", "acceptEdits", "--allowedTools", "Bash(touch:*)", "--session-id", id)
	outside := filepath.Join(t.TempDir(), "outside.txt")
	if err := os.WriteFile(outside, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(w.dir, "a.txt")
	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, a); err != nil {
		t.Fatal(err)
	}
	o := w.mustRun(0, "", "-p", "--resume", id, "--rewind-to", "1", "--rewind", "files")
	if data, _ := os.ReadFile(outside); string(data) != "mine\n" {
		t.Fatalf("the rewind wrote through the link: %q", data)
	}
	if w.read("b.txt") != "B0\n" || !strings.Contains(o.stdout, "Not restored") {
		t.Fatalf("b %q, report:\n%s", w.read("b.txt"), o.stdout)
	}
}

// A deny rule added since the turn keeps its file as it is: a rewind is
// the user's own act, but no act of ponder's writes a denied file.
func TestRewindLeavesDeniedFilesAlone(t *testing.T) {
	w := newWorld(t, "openai", editTurn("edit both")...)
	w.write("a.txt", "A0\n")
	w.write("b.txt", "B0\n")
	id := "9d81b2a4-c536-4be2-93f4-7f8091a2b3c4"
	w.mustRun(0, "", "-p", "edit both", "--permission-mode", "acceptEdits", "--allowedTools", "Bash(touch:*)", "--session-id", id)
	writeConfigFile(t, filepath.Join(w.cfg, "settings.json"), `{"permissions":{"deny":["Edit(a.txt)"]}}`)
	o := w.mustRun(0, "", "-p", "--resume", id, "--rewind-to", "1", "--rewind", "files")
	if w.read("a.txt") != "A1\n" {
		t.Fatalf("the rewind wrote a denied file: %q", w.read("a.txt"))
	}
	if w.read("b.txt") != "B0\n" || !strings.Contains(o.stdout, "Not restored") || !strings.Contains(o.stdout, "Edit(a.txt)") {
		t.Fatalf("b %q, report:\n%s", w.read("b.txt"), o.stdout)
	}
}

// Approve the plan, and undo its implementation: the files go back, the
// plan stays.
func TestRewindUndoesAnApprovedPlansImplementation(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			writePlan(fakemodel.Match{LastUser: "add a greeting"}),
			exitPlan,
			implement("approved your plan"),
			finished,
		)
		id := "9d81b2a4-c536-4be2-93f4-7f8091a2b3c4"
		o := w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--plan-approval", "accept-edits", "--session-id", id, "--output-format", "json")
		res := lastResult(t, o.stdout)
		plan := res["plan_file"].(string)
		if res["turn"] != 1.0 {
			t.Fatalf("the result does not number the turn: %v", res["turn"])
		}
		if w.read("hello.txt") != "hello\n" {
			t.Fatalf("not implemented: %q", w.read("hello.txt"))
		}
		w.mustRun(0, "", "-p", "--resume", id, "--rewind-to", "1", "--rewind", "files")
		if w.read("hello.txt") != "<missing>" {
			t.Fatalf("the implementation was not undone: %q", w.read("hello.txt"))
		}
		if data, err := os.ReadFile(plan); err != nil || string(data) != thePlan {
			t.Fatalf("the plan did not stay: %q %v", data, err)
		}
	})
}
