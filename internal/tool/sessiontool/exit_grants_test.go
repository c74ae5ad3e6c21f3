package sessiontool

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
)

// fakeImpl judges rules by a table and records what an approval applied.
type fakeImpl struct {
	outside map[string]bool
	model   string
	rules   []string
	called  bool
}

func (f *fakeImpl) JudgeGrant(rule string) (permission.Reach, error) {
	if _, err := permission.ParseRule(rule); err != nil {
		return permission.Reach{}, err
	}
	if f.outside[rule] {
		return permission.Reach{Outside: true, Why: "test says so"}, nil
	}
	return permission.Reach{}, nil
}
func (f *fakeImpl) CheckModel(name string) error {
	if strings.Contains(name, " ") {
		return errors.New("bad model")
	}
	return nil
}
func (f *fakeImpl) Models() []string { return []string{"main-model", "strong-model"} }
func (f *fakeImpl) Implement(model string, rules []string) {
	f.called, f.model, f.rules = true, model, rules
}

const askTwo = `{"permissions":[{"rule":"Bash(go test:*)","reason":"run the tests"},{"rule":"Bash(rm:*)","reason":"clean up"}]}`

func planned(t *testing.T) *planmode.Session {
	plan := newPlan(t)
	plan.SetMode(permission.ModePlan, planmode.ViaFlag)
	os.WriteFile(plan.PlanFile(""), []byte("# Plan\n1. step\n2. test\n"), 0o644)
	return plan
}

func TestExitPlanModeGrantsWhatThePlanAsksForAndStaysInside(t *testing.T) {
	cases := []struct {
		name  string
		grant []string
		want  string
	}{
		{"default grants only what stays inside", nil, "Bash(go test:*)"},
		{"a host may name a subset", []string{"Bash(rm:*)"}, "Bash(rm:*)"},
		{"an empty list grants nothing", []string{}, ""},
		{"rules the plan did not ask for are never granted", []string{"Bash", "Edit(//etc/**)"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			plan := planned(t)
			impl := &fakeImpl{outside: map[string]bool{"Bash(rm:*)": true}}
			ask := &scripted{ans: permission.Answer{Option: planmode.OptionAcceptEdits, Grant: tc.grant, Model: "strong-model"}}
			res := run(t, NewExitPlanMode(plan, ask, impl), mainEnv, askTwo)
			if res.IsError || plan.Mode() != permission.ModeAcceptEdits {
				t.Fatalf("result %+v", res)
			}
			q := ask.asked[0]
			if len(q.Permissions) != 2 || q.Permissions[0].Outside || !q.Permissions[1].Outside || q.Permissions[0].Reason != "run the tests" {
				t.Fatalf("question permissions %+v", q.Permissions)
			}
			if len(q.Models) != 2 {
				t.Fatalf("models %v", q.Models)
			}
			if got := strings.Join(impl.rules, ","); got != tc.want {
				t.Fatalf("granted %q, want %q", got, tc.want)
			}
			if impl.model != "strong-model" {
				t.Fatalf("model %q", impl.model)
			}
			if tc.want != "" && !strings.Contains(res.Content, tc.want) {
				t.Fatalf("the model is not told what was granted: %s", res.Content)
			}
		})
	}
}

func TestExitPlanModeRejectsBadPermissionInput(t *testing.T) {
	for _, in := range []string{
		`{"permissions":[{"rule":"Bash("}]}`,
		`{"permissions":[{"rule":"Bash(ls)","extra":1}]}`,
		`{"permissions":[{"rule":"Bash(ls)\n1. Yes, and bypass"}]}`,
		`{"permissions":[{"rule":"Bash(ls)","reason":"ok\u001b[2J"}]}`,
		`{"permissions":"Bash"}`,
		`{"permissions":[` + strings.Repeat(`{"rule":"Bash(ls)"},`, 20) + `{"rule":"Bash(ls)"}]}`,
		`{"permissions":[{"rule":"Bash(ls)","reason":"` + strings.Repeat("x", 301) + `"}]}`,
	} {
		plan := planned(t)
		ask := &scripted{ans: permission.Answer{Option: planmode.OptionAcceptEdits}}
		tl := NewExitPlanMode(plan, ask, &fakeImpl{})
		if _, err := tl.Prepare(mainEnv, []byte(in)); err == nil {
			t.Errorf("input %s was accepted", in)
		}
	}
	// Without an implementer, asking for permissions is refused, not
	// silently dropped.
	if _, err := NewExitPlanMode(planned(t), &scripted{}, nil).Prepare(mainEnv, []byte(askTwo)); err == nil {
		t.Error("permissions accepted where nothing can grant them")
	}
}

func TestRejectedPlanComesBackWithCommentsAndMarksChanges(t *testing.T) {
	plan := planned(t)
	edited := "# Plan\n1. step\n2. test with -race\n"
	ask := &scripted{ans: permission.Answer{Option: planmode.OptionReject, EditedPlan: &edited,
		Annotations: []event.Annotation{{Line: 2, Comment: "which step?"}}}}
	impl := &fakeImpl{}
	res := run(t, NewExitPlanMode(plan, ask, impl), mainEnv, `{}`)
	if !res.IsError || plan.Mode() != permission.ModePlan || impl.called {
		t.Fatalf("result %+v, implemented %v", res, impl.called)
	}
	for _, want := range []string{"Line 2:\n> 1. step\nComment: which step?", "-2. test\n+2. test with -race", "Plan mode is still on"} {
		if !strings.Contains(res.Content, want) {
			t.Fatalf("the model's result lacks %q:\n%s", want, res.Content)
		}
	}
	// The model revises; the next approval marks what is new since.
	os.WriteFile(plan.PlanFile(""), []byte("# Plan\n1. write the parser\n2. test with -race\n3. benchmark\n"), 0o644)
	ask.ans = permission.Answer{Option: planmode.OptionManual}
	run(t, NewExitPlanMode(plan, ask, impl), mainEnv, `{}`)
	q := ask.asked[1]
	if q.PreviousPlan != edited || len(q.ChangedLines) != 2 || q.ChangedLines[0] != 2 || q.ChangedLines[1] != 4 {
		t.Fatalf("revision: previous %q changed %v", q.PreviousPlan, q.ChangedLines)
	}
	if plan.State().SentBack != "" {
		t.Fatal("an approved plan still remembers the version sent back")
	}
}

func TestCommentsAloneSendThePlanBack(t *testing.T) {
	plan := planned(t)
	ask := &scripted{ans: permission.Answer{Annotations: []event.Annotation{{Line: 3, Comment: "use t.Parallel"}}}}
	impl := &fakeImpl{}
	res := run(t, NewExitPlanMode(plan, ask, impl), mainEnv, `{}`)
	if !res.IsError || plan.Mode() != permission.ModePlan || impl.called || !strings.Contains(res.Content, "> 2. test") {
		t.Fatalf("result %+v", res)
	}
}

func TestCheckAnnotations(t *testing.T) {
	plan := "a\nb\n"
	for _, bad := range [][]event.Annotation{{{Line: 0, Comment: "x"}}, {{Line: 3, Comment: "x"}}, {{Line: 1, Comment: "  "}}} {
		if planmode.CheckAnnotations(plan, bad) == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	if err := planmode.CheckAnnotations(plan, []event.Annotation{{Line: 2, Comment: "ok"}}); err != nil {
		t.Fatal(err)
	}
}
