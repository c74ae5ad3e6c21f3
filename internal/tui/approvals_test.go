package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/event"
)

const editDiff = `--- main.go
+++ main.go
@@ -3,7 +3,11 @@
 import "fmt"
 
 func main() {
-	fmt.Println("hello")
+	msg := "hello"
+	if shout {
+		msg = strings.ToUpper(msg)
+	}
+	fmt.Println(msg)
 }
`

// The per-edit question shows the lines the edit changes, coloured by the
// theme, with the file's path relative to the project.
func TestPermissionDialogShowsTheDiff(t *testing.T) {
	f := newFixture(t, false)
	res := f.ask(event.Question{Kind: event.AskToolUse, Tool: "Edit", Path: "main.go", Diff: editDiff,
		Input:  json.RawMessage(`{"file_path":"/somewhere/project/main.go"}`),
		Reason: "Changing main.go needs approval.", Suggest: "Edit(main.go)"})
	s := f.screen()
	golden(t, "dialog-permission-diff", s)
	for _, want := range []string{"Allow this change?", "Edit main.go", "+5 −1 lines", "-   fmt.Println(\"hello\")", "+   if shout {", "don't ask again this session for Edit(main.go)"} {
		if !strings.Contains(s, want) {
			t.Errorf("the dialog lacks %q", want)
		}
	}
	f.keys("enter")
	if a := (<-res).must(t); !a.Allow || a.Always {
		t.Fatalf("answer %+v", a)
	}
}

// A diff longer than the dialog scrolls; escape sequences in it are not
// passed to the terminal.
func TestPermissionDialogDiffScrollsAndIsSafe(t *testing.T) {
	f := newFixture(t, false)
	var d strings.Builder
	d.WriteString("@@ -0,0 +1,60 @@\n")
	for i := range 60 {
		d.WriteString("+line " + strings.Repeat("x", i%5) + "\x1b]0;pwned\x07\n")
	}
	res := f.ask(event.Question{Kind: event.AskToolUse, Tool: "Write", Path: "big.txt", Diff: d.String(), Input: json.RawMessage(`{}`)})
	s := f.screen()
	if strings.Contains(s, "\x1b]") || !strings.Contains(s, "↓ more (pgdn)") {
		t.Fatalf("screen:\n%q", s)
	}
	f.keys("end")
	if s := f.screen(); !strings.Contains(s, "↑ (pgup)") {
		t.Fatalf("did not scroll:\n%s", s)
	}
	f.keys("esc")
	if r := <-res; r.err == nil {
		t.Fatalf("a dismissed question was answered: %+v", r.ans)
	}
}

// A Bash question shows the whole command, wrapped, never cut.
func TestPermissionDialogShowsTheWholeCommand(t *testing.T) {
	f := newFixture(t, false)
	cmd := "npm run build -- --config ./configs/production.webpack.config.js --output-path ./dist/release && rm -rf ./dist/tmp-after-the-build"
	input, _ := json.Marshal(map[string]string{"command": cmd})
	f.ask(event.Question{Kind: event.AskToolUse, Tool: "Bash", Input: input, Reason: "The command may change files."})
	s := f.screen()
	golden(t, "dialog-permission-bash", s)
	if !strings.Contains(s, "rm -rf ./dist/tmp-after-the-build") {
		t.Fatalf("the end of the command is not shown:\n%s", s)
	}
}

func permissionQuestion(f *fixture) event.Question {
	q := approvalQuestion(f)
	q.Permissions = []event.PlanPermission{
		{Rule: "Bash(go test:*)", Reason: "run the tests"},
		{Rule: "Bash(rm:*)", Reason: "clean up", Outside: true, Why: "may write files anywhere (rm with any path)"},
	}
	q.Models = []string{"claude-sonnet-5-5", "claude-opus-5", "claude-haiku-5"}
	return q
}

// The approval lists the permissions the plan asks for: approving grants
// those inside the project; g adds the marked ones; m picks the model.
func TestApprovalDialogPermissionsAndModel(t *testing.T) {
	f := newFixture(t, false)
	res := f.ask(permissionQuestion(f))
	golden(t, "dialog-approval-permissions", f.screen())
	f.keys("enter")
	a := (<-res).must(t)
	if strings.Join(a.Grant, ",") != "Bash(go test:*)" || a.Model != "" {
		t.Fatalf("answer %+v", a)
	}
	res = f.ask(permissionQuestion(f))
	f.keys("g", "m")
	if s := f.screen(); !strings.Contains(s, "Implemented by claude-opus-5") || !strings.Contains(s, "✓ Bash(rm:*)") {
		t.Fatalf("screen:\n%s", s)
	}
	f.keys("2")
	a = (<-res).must(t)
	if strings.Join(a.Grant, ",") != "Bash(go test:*),Bash(rm:*)" || a.Model != "claude-opus-5" || a.Option != event.OptionManual {
		t.Fatalf("answer %+v", a)
	}
}

// Comments on lines go with the answer: approving gives them to the
// implementing model as notes, "No, keep planning" sends them back.
func TestApprovalDialogAnnotations(t *testing.T) {
	f := newFixture(t, false)
	comment := func() {
		f.keys("c", "down", "down", "down", "enter")
		f.typeText("which file holds the greeter?")
		f.keys("enter")
		f.keys("down", "down", "down", "down", "enter")
		f.typeText("also cover the default")
		f.keys("enter", "esc")
	}
	res := f.ask(approvalQuestion(f))
	comment()
	s := f.screen()
	golden(t, "dialog-approval-annotated", s)
	if !strings.Contains(s, "1. Yes, with my comments as notes, and auto-accept edits") || !strings.Contains(s, "No, keep planning and send my comments") {
		t.Fatalf("the options do not say the comments go with them:\n%s", s)
	}
	f.keys("1")
	a := (<-res).must(t)
	if a.Option != event.OptionAcceptEdits || len(a.Annotations) != 2 ||
		a.Annotations[0] != (event.Annotation{Line: 4, Comment: "which file holds the greeter?"}) || a.Annotations[1].Line != 8 {
		t.Fatalf("approving with comments: answer %+v", a)
	}

	res = f.ask(approvalQuestion(f))
	comment()
	f.keys("4")
	f.typeText("see the comments")
	f.keys("enter")
	a = (<-res).must(t)
	if a.Option != event.OptionReject || a.Feedback != "see the comments" || len(a.Annotations) != 2 ||
		a.Annotations[0] != (event.Annotation{Line: 4, Comment: "which file holds the greeter?"}) || a.Annotations[1].Line != 8 {
		t.Fatalf("answer %+v", a)
	}
}

// A plan sent back before opens on its lines with what changed marked.
func TestApprovalDialogMarksChangesSinceSentBack(t *testing.T) {
	f := newFixture(t, false)
	q := approvalQuestion(f)
	q.PreviousPlan = "# old\n"
	q.ChangedLines = []int{3, 4}
	f.ask(q)
	s := f.screen()
	golden(t, "dialog-approval-revised", s)
	if !strings.Contains(s, "+ marks the 2 lines new since you sent the plan back") || !strings.Contains(s, "+  3 ## Context") {
		t.Fatalf("screen:\n%s", s)
	}
}

// Dismissing the approval says what happened and how to come back.
func TestDismissedApprovalSaysSo(t *testing.T) {
	f := newFixture(t, false)
	res := f.ask(approvalQuestion(f))
	f.keys("esc")
	if r := <-res; r.err == nil {
		t.Fatalf("dismissed but answered: %+v", r.ans)
	}
	if s := f.screen(); !strings.Contains(s, "Approval dismissed") || !strings.Contains(s, "/plan shows") {
		t.Fatalf("screen:\n%s", s)
	}
}
