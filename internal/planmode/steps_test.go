package planmode

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/permission"
)

const shapedPlan = "# Add a greeting\n\nContext here. A numbered aside:\n\n1. not a step\n\n" +
	"## Implementation\n\n1. Add `hello()` to `src/greet.go`\n   with a detail line\n   1. a sub-step\n2) Call it from `cmd/main.go`\n3. Document it\n\n" +
	"```\n4. inside a fence\n```\n\n## Files\n\n- `src/greet.go` (new function)\n- cmd/main.go: call site\n- `src/api/` new handlers\n- `../outside.go`\n- `*.go`\n\n## Verification\n\n- go test ./...\n"

func TestParseOutlineReadsTheShapeThePromptAsksFor(t *testing.T) {
	o := ParseOutline(shapedPlan)
	if o.Title != "Add a greeting" {
		t.Errorf("title = %q", o.Title)
	}
	want := []string{"Add `hello()` to `src/greet.go`", "Call it from `cmd/main.go`", "Document it"}
	if !reflect.DeepEqual(o.Steps, want) {
		t.Errorf("steps = %q, want %q", o.Steps, want)
	}
	if !reflect.DeepEqual(o.Files, []string{"src/greet.go", "cmd/main.go"}) {
		t.Errorf("files = %q", o.Files)
	}
	if !reflect.DeepEqual(o.Dirs, []string{"src/api/"}) {
		t.Errorf("dirs = %q", o.Dirs)
	}
}

func TestParseOutlineToleratesOtherShapes(t *testing.T) {
	for name, tc := range map[string]struct {
		plan  string
		steps int
		files []string
	}{
		"prose only":          {"We will fix the bug in the parser.", 0, nil},
		"empty":               {"", 0, nil},
		"bulleted steps":      {"# T\n## Steps\n- one `a/b.go`\n- two\n", 2, []string{"a/b.go"}},
		"numbers, no heading": {"Do this:\n1. first\n2. second\n", 2, nil},
		"crlf":                {"## Implementation\r\n1. x `f.txt`\r\n2. y\r\n", 2, []string{"f.txt"}},
		"headings only":       {"# A\n## B\n### C\n", 0, nil},
	} {
		o := ParseOutline(tc.plan)
		if len(o.Steps) != tc.steps || !reflect.DeepEqual(o.Files, tc.files) {
			t.Errorf("%s: steps %q files %q", name, o.Steps, o.Files)
		}
	}
	var long strings.Builder
	long.WriteString("## Implementation\n")
	for range 200 {
		long.WriteString("1. again\n")
	}
	if n := len(ParseOutline(long.String()).Steps); n != MaxSteps {
		t.Errorf("a long plan gives %d steps, want %d", n, MaxSteps)
	}
}

func TestApprovalCarriesThePlanAndFencesAcceptEdits(t *testing.T) {
	root := t.TempDir()
	s := New(Config{ConfigDir: t.TempDir(), ProjectDir: root}, "sess", permission.ModeDefault, nil, nil)
	s.SetMode(permission.ModePlan, ViaTUI)
	if err := s.WritePlan("", shapedPlan); err != nil {
		t.Fatal(err)
	}
	if s.Scope() != nil {
		t.Fatal("a fence before any approval")
	}
	if _, err := s.Approve(OptionAcceptEdits, nil); err != nil {
		t.Fatal(err)
	}
	c, ok := s.Carried()
	if !ok || len(c.StepItems()) != 3 || !c.Fence {
		t.Fatalf("carried = %+v", c)
	}
	sc := s.Scope()
	if sc == nil {
		t.Fatal("no fence after an accept-edits approval")
	}
	wantFiles := []string{filepath.Join(root, "src/greet.go"), filepath.Join(root, "cmd/main.go")}
	if !reflect.DeepEqual(sc.Files, wantFiles) || !reflect.DeepEqual(sc.Dirs, []string{filepath.Join(root, "src/api")}) {
		t.Errorf("scope = %+v", sc)
	}
	// A plan cannot fence in the whole project, or what lies outside it.
	wide := New(Config{ConfigDir: t.TempDir(), ProjectDir: root}, "s3", permission.ModePlan, nil, nil)
	_ = wide.WritePlan("", "## Files\n- `./`\n- `/etc/`\n- `/tmp/x.go`\n")
	if _, err := wide.Approve(OptionAcceptEdits, nil); err != nil {
		t.Fatal(err)
	}
	if sc := wide.Scope(); sc != nil {
		t.Errorf("a fence around the project or outside it: %+v", sc)
	}
	s.SetMode(permission.ModeDefault, ViaTUI)
	if s.Scope() != nil {
		t.Error("the fence is for accept-edits only")
	}

	off := New(Config{ConfigDir: t.TempDir(), ProjectDir: root, NoScopeFence: true}, "s2", permission.ModePlan, nil, nil)
	_ = off.WritePlan("", shapedPlan)
	if _, err := off.Approve(OptionAcceptEdits, nil); err != nil {
		t.Fatal(err)
	}
	if off.Scope() != nil {
		t.Error("planMode.scopeFence false still fences")
	}
}

func TestStepReminderIsSmallAndStopsWhenAllIsDone(t *testing.T) {
	items := make([]event.TodoItem, 40)
	for i := range items {
		items[i] = event.TodoItem{Content: strings.Repeat("a long step text ", 30), Status: event.TodoPending, ActiveForm: "x"}
	}
	items[0].Status = event.TodoCompleted
	r, ok := StepReminder(items)
	if !ok || !strings.Contains(r.Text, "1 of 40 steps done") || !strings.Contains(r.Text, "and 36 more") {
		t.Fatalf("reminder = %q", r.Text)
	}
	// About four bytes a token: 300 tokens is about 1200 bytes.
	if len(r.Text) > 1000 {
		t.Errorf("the reminder is %d bytes", len(r.Text))
	}
	for i := range items {
		items[i].Status = event.TodoCompleted
	}
	if _, ok := StepReminder(items); ok {
		t.Error("a reminder with every step done")
	}
}

func TestProvenanceNamesChangedFilesAndOffersReplan(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".git", "refs", "heads"), 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(root, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	_ = os.WriteFile(filepath.Join(root, ".git", "refs", "heads", "main"), []byte("0123abcd\n"), 0o644)
	_ = os.MkdirAll(filepath.Join(root, "src"), 0o755)
	_ = os.WriteFile(filepath.Join(root, "src", "greet.go"), []byte("v1"), 0o644)
	s := New(Config{ConfigDir: t.TempDir(), ProjectDir: filepath.Join(root)}, "sess", permission.ModePlan, nil, nil)
	s.RequestExit("", shapedPlan, nil)
	p, ok := s.Provenance()
	if !ok || p.Commit != "0123abcd" || p.Hashes["cmd/main.go"] != "" || len(p.Hashes["src/greet.go"]) != 64 {
		t.Fatalf("provenance %+v", p)
	}
	has := func(id string) bool {
		for _, o := range s.Options() {
			if o.ID == id {
				return true
			}
		}
		return false
	}
	if s.StaleFiles() != nil || has(OptionReplan) {
		t.Fatal("stale before any change")
	}
	_ = os.WriteFile(filepath.Join(root, "src", "greet.go"), []byte("v2"), 0o644)
	_ = os.WriteFile(filepath.Join(root, "cmd.go"), nil, 0o644)
	_ = os.MkdirAll(filepath.Join(root, "cmd"), 0o755)
	_ = os.WriteFile(filepath.Join(root, "cmd", "main.go"), []byte("new"), 0o644)
	if got := s.StaleFiles(); !reflect.DeepEqual(got, []string{"cmd/main.go", "src/greet.go"}) || !has(OptionReplan) {
		t.Fatalf("stale %q, replan offered %v", got, has(OptionReplan))
	}
	// The same plan asked again keeps what it was written against.
	s.RequestExit("", shapedPlan, nil)
	if len(s.StaleFiles()) != 2 {
		t.Fatal("asking again forgot the provenance")
	}
	if !strings.Contains(s.ReplanFeedback("also X"), "src/greet.go") {
		t.Error(s.ReplanFeedback(""))
	}
}

// Qualified identifiers in backquotes are not files the plan names.
func TestIdentifiersAreNotPlannedFiles(t *testing.T) {
	o := ParseOutline("# T\n\n## Implementation\n1. Use `strings.ToUpper` and `fmt.Println()` in `main.go`, then `cmd/x/run.go`.\n")
	got := strings.Join(o.Files, ",")
	if got != "main.go,cmd/x/run.go" {
		t.Errorf("files %q", got)
	}
}
