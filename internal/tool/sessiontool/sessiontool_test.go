package sessiontool

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/todo"
	"github.com/ponder-agent/ponder/internal/tool"
)

// scripted answers every question with a fixed answer and records it.
type scripted struct {
	ans   permission.Answer
	err   error
	asked []permission.Question
}

func (s *scripted) Ask(_ context.Context, q permission.Question) (permission.Answer, error) {
	s.asked = append(s.asked, q)
	return s.ans, s.err
}

func newPlan(t *testing.T) *planmode.Session {
	return planmode.New(planmode.Config{ConfigDir: t.TempDir(), ProjectDir: t.TempDir()}, "s", permission.ModeDefault, nil, nil)
}

func run(t *testing.T, tl tool.Tool, env *tool.Env, input string) tool.Result {
	t.Helper()
	c, err := tl.Prepare(env, json.RawMessage(input))
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	return c.Run(context.Background())
}

var mainEnv = &tool.Env{Dir: "/"}

func TestEnterPlanMode(t *testing.T) {
	plan := newPlan(t)
	ask := &scripted{ans: permission.Answer{Allow: true}}
	enter := NewEnterPlanMode(plan, ask)
	if _, err := enter.Prepare(mainEnv, json.RawMessage(`{"reason":"x"}`)); err == nil {
		t.Fatal("EnterPlanMode must take an empty input only")
	}
	res := run(t, enter, mainEnv, `{}`)
	if res.IsError || plan.Mode() != permission.ModePlan || len(ask.asked) != 1 || ask.asked[0].Kind != permission.AskEnterPlan {
		t.Fatalf("result %+v mode %s asked %+v", res, plan.Mode(), ask.asked)
	}
	// The result is short: the workflow arrives by reminder.
	if len(res.Content) > 300 || strings.Contains(res.Content, "Phase") || !strings.Contains(res.Content, plan.PlanFile("")) {
		t.Fatalf("enter result %q", res.Content)
	}
	if res := run(t, enter, mainEnv, `{}`); !strings.Contains(res.Content, "already on") || len(ask.asked) != 1 {
		t.Fatalf("second call %+v", res)
	}
}

// Inside a subagent EnterPlanMode never runs: agentdef keeps it out of
// every subagent's tools and the permission engine refuses it
// (permission.TestToolsNotOfferedAreRefused, e2e
// TestEnterPlanModeRefusedInsideAnAgent).
func TestEnterPlanModeDeclined(t *testing.T) {
	plan := newPlan(t)
	enter := NewEnterPlanMode(plan, &scripted{ans: permission.Answer{Allow: false, Message: "just fix it"}})
	res := run(t, enter, mainEnv, `{}`)
	if plan.Mode() != permission.ModeDefault || !strings.Contains(res.Content, "just fix it") {
		t.Fatalf("declined: %+v mode %s", res, plan.Mode())
	}
	res = run(t, NewEnterPlanMode(plan, permission.NoAnswerer{}), mainEnv, `{}`)
	if !res.IsError || plan.Mode() != permission.ModeDefault {
		t.Fatalf("nobody to confirm: %+v", res)
	}
}

func TestExitPlanModeRefusals(t *testing.T) {
	plan := newPlan(t)
	ask := &scripted{ans: permission.Answer{Option: planmode.OptionAcceptEdits}}
	exit := NewExitPlanMode(plan, ask)
	if res := run(t, exit, mainEnv, `{}`); !res.IsError || !strings.Contains(res.Content, "not on") {
		t.Fatalf("outside plan mode: %+v", res)
	}
	plan.SetMode(permission.ModePlan, planmode.ViaFlag)
	if res := run(t, exit, mainEnv, `{}`); !res.IsError || !strings.Contains(res.Content, plan.PlanFile("")) {
		t.Fatalf("without a plan: %+v", res)
	}
	os.WriteFile(plan.PlanFile(""), []byte("   \n"), 0o644)
	if res := run(t, exit, mainEnv, `{}`); !res.IsError {
		t.Fatalf("with an empty plan: %+v", res)
	}
	if len(ask.asked) != 0 || plan.Mode() != permission.ModePlan {
		t.Fatal("nothing may be asked or changed before there is a plan")
	}
}

func TestExitPlanModeOutcomes(t *testing.T) {
	edited := "# Plan, edited"
	cases := []struct {
		name     string
		ans      permission.Answer
		err      error
		mode     permission.Mode
		contains string
		isErr    bool
		stop     tool.Stop
	}{
		{"accept edits", permission.Answer{Option: planmode.OptionAcceptEdits}, nil, permission.ModeAcceptEdits, "## Approved plan\n# Plan", false, tool.StopNone},
		{"manual", permission.Answer{Option: planmode.OptionManual}, nil, permission.ModeDefault, "approved your plan", false, tool.StopNone},
		{"edited", permission.Answer{Option: planmode.OptionAcceptEdits, EditedPlan: &edited}, nil, permission.ModeAcceptEdits, "edited by the user", false, tool.StopNone},
		{"clear", permission.Answer{Option: planmode.OptionClearContext}, nil, permission.ModeDefault, "cleared", false, tool.StopClearContext},
		{"reject", permission.Answer{Option: planmode.OptionReject, Feedback: "split step 2"}, nil, permission.ModePlan, "split step 2", true, tool.StopNone},
		{"feedback only", permission.Answer{Feedback: "too vague"}, nil, permission.ModePlan, "too vague", true, tool.StopNone},
		{"interrupted", permission.Answer{}, permission.ErrInterrupted, permission.ModePlan, "Nobody approved", true, tool.StopNone},
		{"pending", permission.Answer{}, planmode.ErrApprovalPending, permission.ModePlan, "waiting", false, tool.StopPending},
		{"unknown option", permission.Answer{Option: "yolo"}, nil, permission.ModePlan, "not approved", true, tool.StopNone},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			plan := newPlan(t)
			plan.SetMode(permission.ModePlan, planmode.ViaFlag)
			os.WriteFile(plan.PlanFile(""), []byte("# Plan\n1. step"), 0o644)
			ask := &scripted{ans: tc.ans, err: tc.err}
			res := run(t, NewExitPlanMode(plan, ask), mainEnv, `{}`)
			if plan.Mode() != tc.mode || res.IsError != tc.isErr || res.Stop != tc.stop || !strings.Contains(res.Content, tc.contains) {
				t.Fatalf("mode %s result %+v", plan.Mode(), res)
			}
			q := ask.asked[0]
			if q.Kind != permission.AskPlanExit || q.Plan != "# Plan\n1. step" || q.PlanFile != plan.PlanFile("") || len(q.Options) < 4 {
				t.Fatalf("question %+v", q)
			}
			if tc.ans.EditedPlan != nil {
				if got, _ := plan.ReadPlan(""); got != edited {
					t.Fatalf("edited plan not saved: %q", got)
				}
			}
		})
	}
}

func TestExitPlanModeInSubagentNeedsNoApproval(t *testing.T) {
	plan := newPlan(t)
	plan.SetMode(permission.ModePlan, planmode.ViaFlag)
	ask := &scripted{}
	res := run(t, NewExitPlanMode(plan, ask), &tool.Env{AgentID: "a1"}, `{}`)
	if res.IsError || len(ask.asked) != 0 || plan.Mode() != permission.ModePlan || !strings.Contains(res.Content, "done") {
		t.Fatalf("subagent exit %+v", res)
	}
}

func TestAskUserQuestion(t *testing.T) {
	ask := &scripted{ans: permission.Answer{Answers: map[string]string{"Which database?": "Postgres"}}}
	tl := NewAskUserQuestion(ask)
	good := `{"questions":[{"question":"Which database?","header":"DB","multiSelect":false,"options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"embedded"}]}]}`
	res := run(t, tl, mainEnv, good)
	if res.IsError || !strings.Contains(res.Content, `"Which database?": Postgres`) {
		t.Fatalf("result %+v", res)
	}
	for _, bad := range []string{
		`{"questions":[]}`,
		`{"questions":[{"question":"Q?","header":"h","multiSelect":false,"options":[{"label":"only","description":"d"}]}]}`,
		`{"questions":[{"question":"","header":"h","multiSelect":false,"options":[{"label":"a","description":""},{"label":"b","description":""}]}]}`,
	} {
		if _, err := tl.Prepare(mainEnv, json.RawMessage(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
	res = run(t, NewAskUserQuestion(permission.NoAnswerer{}), mainEnv, good)
	if !res.IsError || !strings.Contains(res.Content, "best judgement") {
		t.Fatalf("nobody to answer: %+v", res)
	}
}

func TestTodoWrite(t *testing.T) {
	dir := t.TempDir()
	var saved []todo.Item
	tl := NewTodoWrite(func(agentID string) string { return filepath.Join(dir, "s-agent-"+agentID+".json") },
		func(_ string, items []todo.Item) { saved = items })
	res := run(t, tl, &tool.Env{AgentID: "main"}, `{"todos":[{"content":"Write tests","status":"completed","activeForm":"Writing tests"},{"content":"Ship","status":"pending","activeForm":"Shipping"}]}`)
	if res.IsError || res.Summary != "1/2 done" || len(saved) != 2 {
		t.Fatalf("result %+v saved %+v", res, saved)
	}
	items, err := todo.Load(filepath.Join(dir, "s-agent-main.json"))
	if err != nil || len(items) != 2 {
		t.Fatalf("stored %+v %v", items, err)
	}
	if _, err := tl.Prepare(mainEnv, json.RawMessage(`{"todos":[{"content":"x","status":"done","activeForm":"X"}]}`)); err == nil {
		t.Fatal("an unknown status must be refused")
	}
}
