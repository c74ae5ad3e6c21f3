package tui

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tui/input"
)

var update = flag.Bool("update", false, "rewrite the golden screens")

// fixture is a model over an app with the in-process fake model.
type fixture struct {
	t    testing.TB
	m    *Model
	a    *app.App
	base string
}

func newFixture(t testing.TB, bypass bool, replies ...fakemodel.Reply) *fixture {
	t.Helper()
	// Paths on screen are shown relative to the home directory, so the
	// screens do not depend on where the test runs.
	base := t.TempDir()
	t.Setenv("HOME", base)
	proj := filepath.Join(base, "project")
	os.MkdirAll(proj, 0o755)
	a, err := app.New(app.Options{
		Dir: proj, ConfigDir: filepath.Join(base, "config"), Interactive: true, BypassAllowed: bypass,
		LLM:      fakemodel.NewProvider(fakemodel.Script{Replies: replies}),
		Getenv:   func(string) string { return "" },
		PlanName: "brisk-sorting-harbor",
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	m := newModel(a, plainTheme())
	t.Cleanup(m.Close)
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	fixed := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	m.now = func() time.Time { return fixed }
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	f := &fixture{t: t, m: m, a: a, base: base}
	f.drain()
	return f
}

// drain feeds every event published so far into the model.
func (f *fixture) drain() {
	for {
		select {
		case e := <-f.m.events:
			f.m.Update(eventMsg{e})
		default:
			return
		}
	}
}

// waitEvent feeds events until one satisfies ok.
func (f *fixture) waitEvent(ok func(event.Event) bool) {
	f.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case e := <-f.m.events:
			f.m.Update(eventMsg{e})
			if ok(e) {
				return
			}
		case <-timeout:
			f.t.Fatal("the expected event never came")
		}
	}
}

// keys presses keys, and runs the commands they return as the program
// would, delivering their messages.
func (f *fixture) keys(keys ...string) {
	for _, k := range keys {
		_, cmd := f.m.Update(keyMsg(k))
		f.run(cmd)
	}
}

// run runs cmd and what follows from it, as the program would, except
// the spinner's ticks; then it drains the events they published.
func (f *fixture) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil, tickMsg:
	case tea.BatchMsg:
		for _, c := range msg {
			f.run(c)
		}
	default:
		_, next := f.m.Update(msg)
		f.run(next)
	}
	f.drain()
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "ctrl+g":
		return tea.KeyPressMsg{Code: 'g', Mod: tea.ModCtrl}
	}
	r := []rune(k)
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

func (f *fixture) typeText(s string) {
	for _, r := range s {
		f.m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// screen renders the model with machine-specific paths replaced.
func (f *fixture) screen() string {
	s := f.m.render()
	if strings.Contains(s, f.base) {
		f.t.Errorf("a full temporary path is on screen:\n%s", s)
	}
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		lines = append(lines, strings.TrimRight(l, " "))
	}
	return strings.Join(lines, "\n") + "\n"
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/tui -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("screen %s differs from the golden file (run with -update if the change is intended)\n--- got:\n%s\n--- want:\n%s", name, got, want)
	}
}

// ask puts a question through the app's broker, as a tool would, and
// returns where its answer will arrive.
func (f *fixture) ask(q event.Question) <-chan askResult {
	out := make(chan askResult, 1)
	go func() {
		a, err := f.a.Ask(context.Background(), q)
		out <- askResult{a, err}
	}()
	f.waitEvent(func(e event.Event) bool { _, ok := e.(event.QuestionAsked); return ok })
	return out
}

type askResult struct {
	ans event.Answer
	err error
}

func (r askResult) must(t *testing.T) event.Answer {
	t.Helper()
	if r.err != nil {
		t.Fatalf("question not answered: %v", r.err)
	}
	return r.ans
}

func TestPlanModeStatusLine(t *testing.T) {
	f := newFixture(t, false)
	golden(t, "status-default", f.screen())
	f.keys("shift+tab", "shift+tab")
	f.drain()
	if f.a.Mode() != event.ModePlan {
		t.Fatalf("mode %s after two Shift+Tab", f.a.Mode())
	}
	f.m.phase = "design"
	golden(t, "status-plan-mode", f.screen())
	f.keys("shift+tab")
	f.drain()
	if f.a.Mode() != event.ModeDefault {
		t.Fatalf("the cycle without bypass returns to default, got %s", f.a.Mode())
	}
}

func TestShiftTabIncludesBypassOnlyWhenAllowed(t *testing.T) {
	f := newFixture(t, true)
	var seen []string
	for range 4 {
		f.keys("shift+tab")
		seen = append(seen, string(f.a.Mode()))
	}
	if strings.Join(seen, " ") != "acceptEdits plan bypassPermissions default" {
		t.Fatalf("cycle %v", seen)
	}
}

func TestPermissionDialog(t *testing.T) {
	f := newFixture(t, false)
	res := f.ask(event.Question{Kind: event.AskToolUse, Tool: "Bash", Input: json.RawMessage(`{"command":"npm install left-pad"}`),
		Reason: "The command may change the system: \"npm install\" installs packages.", Suggest: "Bash(npm install:*)"})
	golden(t, "dialog-permission", f.screen())
	f.keys("down", "enter")
	if a := (<-res).must(t); !a.Allow || !a.Always {
		t.Fatalf("answer %+v", a)
	}
	// No, and say what to do instead.
	res = f.ask(event.Question{Kind: event.AskToolUse, Tool: "Write", Input: json.RawMessage(`{"file_path":"main.go"}`)})
	f.keys("2")
	f.typeText("edit util.go instead")
	golden(t, "dialog-permission-feedback", f.screen())
	f.keys("enter")
	if a := (<-res).must(t); a.Allow || a.Message != "edit util.go instead" {
		t.Fatalf("answer %+v", a)
	}
}

func TestClosingADialogIsAnInterruption(t *testing.T) {
	f := newFixture(t, false)
	res := f.ask(event.Question{Kind: event.AskPlanExit, Plan: "# p", PlanFile: "/x.md", Options: []event.Option{{ID: "accept-edits", Label: "Yes"}, {ID: "reject", Label: "No"}}})
	f.keys("esc")
	if r := <-res; !errors.Is(r.err, permission.ErrInterrupted) {
		t.Fatalf("closing the approval dialog gave %+v", r)
	}
	if len(f.m.dialogs) != 0 {
		t.Fatal("the dialog stayed open")
	}
}

func TestEnterPlanModeDialog(t *testing.T) {
	f := newFixture(t, false)
	res := f.ask(event.Question{Kind: event.AskEnterPlan})
	golden(t, "dialog-enter-plan", f.screen())
	f.keys("enter")
	if a := (<-res).must(t); !a.Allow {
		t.Fatalf("answer %+v", a)
	}
}

const samplePlan = `# Add a --shout flag

## Context
The greeter prints in lower case only.

## Approach
1. Parse ` + "`--shout`" + ` in main.go.
2. Upper-case the greeting when it is set.

## Verification
- go test ./...
`

func approvalQuestion(f *fixture) event.Question {
	return event.Question{Kind: event.AskPlanExit, Plan: samplePlan, PlanFile: f.a.PlanFile(), Options: f.a.ApprovalOptions()}
}

func TestApprovalDialog(t *testing.T) {
	f := newFixture(t, false)
	res := f.ask(approvalQuestion(f))
	golden(t, "dialog-approval", f.screen())
	f.keys("enter")
	if a := (<-res).must(t); a.Option != event.OptionAcceptEdits || a.EditedPlan != nil {
		t.Fatalf("answer %+v", a)
	}
	// Rejecting asks for feedback first.
	res = f.ask(approvalQuestion(f))
	f.keys("4") // No, keep planning
	f.typeText("also add a test")
	golden(t, "dialog-approval-feedback", f.screen())
	f.keys("enter")
	if a := (<-res).must(t); a.Option != "reject" || a.Feedback != "also add a test" {
		t.Fatalf("answer %+v", a)
	}
}

func TestApprovalDialogOffersBypassWhenAllowed(t *testing.T) {
	f := newFixture(t, true)
	res := f.ask(approvalQuestion(f))
	if !strings.Contains(f.screen(), "bypass permissions") {
		t.Fatal("no bypass option although bypass was allowed")
	}
	f.keys("4")
	if a := (<-res).must(t); a.Option != event.OptionBypass {
		t.Fatalf("answer %+v", a)
	}
}

func TestApprovalDialogEditedPlan(t *testing.T) {
	f := newFixture(t, false)
	res := f.ask(approvalQuestion(f))
	d := f.m.activeDialog().(*approvalDialog)
	d.editorReturned(editedPlan{text: "# Edited plan\n"})
	if !strings.Contains(f.screen(), "edited by you") {
		t.Fatal("the dialog does not show that the plan was edited")
	}
	f.keys("enter")
	if a := (<-res).must(t); a.EditedPlan == nil || *a.EditedPlan != "# Edited plan\n" {
		t.Fatalf("answer %+v", a)
	}
}

func TestQuestionDialog(t *testing.T) {
	f := newFixture(t, false)
	res := f.ask(event.Question{Kind: event.AskUser, Questions: []event.UserQuestion{
		{Question: "Which database should the cache use?", Header: "Database", Options: []event.UserOption{
			{Label: "Redis", Description: "shared between instances"}, {Label: "In memory", Description: "simplest, per process"}}},
		{Question: "Which endpoints need caching?", Header: "Endpoints", MultiSelect: true, Options: []event.UserOption{
			{Label: "/users"}, {Label: "/orders"}, {Label: "/search"}}},
	}})
	golden(t, "dialog-question", f.screen())
	f.keys("down", "enter") // In memory, then on to the next tab
	f.keys("space", "down", "down", "space")
	golden(t, "dialog-question-multi", f.screen())
	f.keys("down", "enter")
	f.typeText("/health")
	f.keys("enter")
	golden(t, "dialog-question-review", f.screen())
	f.keys("enter")
	a := (<-res).must(t)
	if a.Answers["Which database should the cache use?"] != "In memory" || a.Answers["Which endpoints need caching?"] != "/users, /search, /health" {
		t.Fatalf("answers %+v", a.Answers)
	}
}

func TestConversationToolLinesAndTodos(t *testing.T) {
	f := newFixture(t, false)
	c := f.m.conv
	c.add(&item{kind: itemUser, text: "tidy the project"})
	f.m.handleEvent(event.AssistantMessage{Message: event.Message{Role: "assistant", Content: []event.Block{{Type: "text", Text: "I will look first."}}}})
	f.m.handleEvent(event.ToolStarted{ID: "1", Name: "Read", Input: json.RawMessage(`{"file_path":"main.go"}`)})
	f.m.handleEvent(event.ToolFinished{ID: "1", Name: "Read", Content: "     1\tpackage main", Summary: "Read 12 lines"})
	f.m.handleEvent(event.ToolRefused{ID: "2", Tool: "Bash", Input: json.RawMessage(`{"command":"rm -rf build"}`), Reason: "Plan mode is on, so nothing but the plan file may change."})
	f.m.handleEvent(event.ToolStarted{ID: "3", Name: "Bash", Input: json.RawMessage(`{"command":"go test ./..."}`)})
	f.m.handleEvent(event.ToolFinished{ID: "4", Name: "Grep", Content: "bad regexp", IsError: true})
	f.m.handleEvent(event.ToolFinished{ID: "5", Name: "TodoWrite", Todos: []event.TodoItem{
		{Content: "Read the code", Status: event.TodoCompleted, ActiveForm: "Reading the code"},
		{Content: "Run the tests", Status: event.TodoInProgress, ActiveForm: "Running the tests"},
		{Content: "Fix failures", Status: event.TodoPending, ActiveForm: "Fixing failures"},
	}})
	f.m.running, f.m.turnStart, f.m.tokens = true, f.m.now().Add(-7*time.Second), 1234
	golden(t, "conversation", f.screen())
	// The list updates in place.
	f.m.handleEvent(event.ToolFinished{ID: "6", Name: "TodoWrite", Todos: []event.TodoItem{
		{Content: "Read the code", Status: event.TodoCompleted, ActiveForm: "Reading the code"},
		{Content: "Run the tests", Status: event.TodoCompleted, ActiveForm: "Running the tests"},
		{Content: "Fix failures", Status: event.TodoInProgress, ActiveForm: "Fixing failures"},
	}})
	if s := f.screen(); strings.Count(s, "Todos ") != 1 || !strings.Contains(s, "Todos 2/3") {
		t.Fatalf("todo panel:\n%s", s)
	}
}

func TestSlashMenuAndPlanCommand(t *testing.T) {
	f := newFixture(t, false)
	f.typeText("/")
	golden(t, "slash-menu", f.screen())
	f.typeText("pl")
	f.keys("tab")
	if f.m.in.Value() != "/plan " {
		t.Fatalf("completion gave %q", f.m.in.Value())
	}
	f.keys("enter")
	f.drain()
	if f.a.Mode() != event.ModePlan {
		t.Fatalf("/plan left the mode at %s", f.a.Mode())
	}
	// /plan again shows that no plan exists yet; then the written plan.
	f.typeText("/plan")
	f.keys("enter")
	if !strings.Contains(f.screen(), "No plan written yet") {
		t.Fatal("no message for a missing plan")
	}
	os.WriteFile(f.a.PlanFile(), []byte(samplePlan), 0o644)
	f.typeText("/plan")
	f.keys("enter")
	if s := f.screen(); !strings.Contains(s, "Current plan") || !strings.Contains(s, "Upper-case the greeting") {
		t.Fatalf("the plan is not shown:\n%s", s)
	}
}

func TestPlanCommandRefusedWhileATurnRuns(t *testing.T) {
	f := newFixture(t, false)
	f.m.running = true
	f.typeText("/plan")
	f.keys("enter")
	if f.a.Mode() != event.ModeDefault || !strings.Contains(f.screen(), "A turn is running") {
		t.Fatalf("mode %s, screen:\n%s", f.a.Mode(), f.screen())
	}
}

func TestCtrlCTwiceQuits(t *testing.T) {
	f := newFixture(t, false)
	f.typeText("draft")
	if cmd := f.m.key(keyMsg("ctrl+c")); cmd != nil {
		t.Fatal("the first Ctrl+C must not quit")
	}
	if f.m.in.Value() != "" || !strings.Contains(f.screen(), "Ctrl+C again") {
		t.Fatal("the first Ctrl+C clears the input and explains")
	}
	cmd := f.m.key(keyMsg("ctrl+c"))
	if cmd == nil {
		t.Fatal("the second Ctrl+C must quit")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("the second Ctrl+C must quit")
	}
}

// The status line names the OS sandbox in force, and says plainly when
// there is none.
func TestStatusLineNamesTheSandbox(t *testing.T) {
	f := newFixture(t, false)
	want := "sandbox: " + f.a.SandboxKind()
	if !strings.Contains(f.screen(), want) {
		t.Errorf("status line without %q:\n%s", want, f.screen())
	}

	base := t.TempDir()
	a, err := app.New(app.Options{
		Dir: base, ConfigDir: filepath.Join(base, "config"), Interactive: true,
		LLM:    fakemodel.NewProvider(fakemodel.Script{}),
		Getenv: func(k string) string { return map[string]string{"PONDER_SANDBOX": "none"}[k] },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	m := newModel(a, plainTheme())
	t.Cleanup(m.Close)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	if s := m.render(); !strings.Contains(s, "sandbox: none") {
		t.Errorf("status line without the missing sandbox:\n%s", s)
	}
}

// Publishing never blocks the interface on its own subscription: Shift+Tab
// publishes from Update, which is also what drains the subscription, so a
// bus that made publishers wait for room would stall the interface for
// good once a burst of events filled its buffer.
func TestCyclingModesUnderAnEventFloodNeverStalls(t *testing.T) {
	f := newFixture(t, false)
	flooded := make(chan struct{})
	go func() {
		for i := range 2000 {
			f.a.Emit(event.Notice{Level: "info", Text: fmt.Sprint("event ", i)})
		}
		close(flooded)
	}()
	done := make(chan struct{})
	go func() {
		// Nothing drains the subscription meanwhile: the key's command
		// (which publishes the mode change) runs on the goroutine that
		// would drain it.
		for range 31 {
			if _, cmd := f.m.Update(keyMsg("shift+tab")); cmd != nil {
				cmd()
			}
		}
		<-flooded
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("cycling modes while 2000 events were published did not finish: the interface stalled on its own events")
	}
	if f.a.Mode() != event.ModeAcceptEdits {
		t.Fatalf("31 presses of Shift+Tab left the mode at %s", f.a.Mode())
	}
	// Every event still arrives, in order, once the interface reads again.
	next := 0
	for next < 2000 {
		select {
		case e := <-f.m.events:
			if n, ok := e.(event.Notice); ok && strings.HasPrefix(n.Text, "event ") {
				if n.Text != fmt.Sprint("event ", next) {
					t.Fatalf("got %q, want event %d", n.Text, next)
				}
				next++
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d of 2000 events arrived", next)
		}
	}
}

// Update touches no file: what needs the disk runs in the command it
// returns. Ctrl+G in plan mode creates the missing plan file (through the
// app) only when its command runs; /resume reads the transcripts only
// when its command runs; the approval dialog's scratch copy of the plan
// too.
func TestUpdateLeavesIOToCommands(t *testing.T) {
	f := newFixture(t, false)
	f.keys("shift+tab", "shift+tab") // plan mode
	if f.a.Mode() != event.ModePlan {
		t.Fatalf("mode %s", f.a.Mode())
	}
	plan := f.a.PlanFile()
	_, cmd := f.m.Update(keyMsg("ctrl+g"))
	if _, err := os.Stat(plan); !errors.Is(err, os.ErrNotExist) || cmd == nil {
		t.Fatalf("Update created the plan file (%v) or returned no command", err)
	}
	switch msg := cmd().(type) {
	case editorReady, notice:
	default:
		t.Fatalf("the command gave %T", msg)
	}
	if _, err := os.Stat(plan); err != nil {
		t.Fatalf("the command did not create the plan file: %v", err)
	}

	f.typeText("/resume")
	_, cmd = f.m.Update(keyMsg("enter"))
	if sub, ok := cmd().(input.Submitted); ok {
		_, cmd = f.m.Update(sub)
	}
	if len(f.m.dialogs) != 0 || cmd == nil {
		t.Fatal("/resume opened its picker before the sessions were read")
	}
	if _, ok := cmd().(sessionsListed); !ok {
		t.Fatal("/resume's command does not list the sessions")
	}

	scratch := filepath.Join(os.TempDir(), "ponder-plan-")
	before, _ := filepath.Glob(scratch + "*")
	f.ask(approvalQuestion(f))
	_, cmd = f.m.Update(keyMsg("ctrl+g"))
	if after, _ := filepath.Glob(scratch + "*"); len(after) != len(before) || cmd == nil {
		t.Fatal("the approval dialog wrote its scratch file in Update")
	}
}

// Showing the interface names no plan file: the name is made when plan
// mode is entered, from the task at hand.
func TestTheInterfaceLeavesThePlanUnnamed(t *testing.T) {
	base := t.TempDir()
	a, err := app.New(app.Options{Dir: base, ConfigDir: filepath.Join(base, "config"), Interactive: true,
		LLM: fakemodel.NewProvider(fakemodel.Script{}), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	m := newModel(a, plainTheme())
	t.Cleanup(m.Close)
	m.render()
	a.SetTaskHint("add oauth login to the API")
	if err := a.SetMode(event.ModePlan, "tui"); err != nil {
		t.Fatal(err)
	}
	if name := filepath.Base(a.PlanFile()); !strings.HasPrefix(name, "add-oauth-login") {
		t.Fatalf("plan file %s is not named after the task", name)
	}
}
