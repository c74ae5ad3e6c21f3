package headless

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ponder-agent/ponder/event"
)

func parse(t *testing.T, s string) reply {
	t.Helper()
	var r reply
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// Answers in both dialects turn into the same answers.
func TestRepliesBecomeAnswers(t *testing.T) {
	for _, tc := range []struct {
		name    string
		kind    event.QuestionKind
		reply   string
		check   func(event.Answer) bool
		mode    string
		dismiss bool
	}{
		{"ponder allow", event.AskToolUse, `{"behavior":"allow","always":true}`, func(a event.Answer) bool { return a.Allow && a.Always }, "", false},
		{"sdk allow with the same input", event.AskToolUse, `{"behavior":"allow","updatedInput":{"a":1}}`, func(a event.Answer) bool { return a.Allow && string(a.UpdatedInput) == `{"a":1}` }, "", false},
		{"sdk allow, don't ask again", event.AskToolUse, `{"behavior":"allow","updatedPermissions":[{"type":"addRules","rules":[{"toolName":"Bash"}],"behavior":"allow","destination":"session"}]}`, func(a event.Answer) bool { return a.Always }, "", false},
		{"sdk deny that interrupts", event.AskToolUse, `{"behavior":"deny","message":"no","interrupt":true}`, func(a event.Answer) bool { return !a.Allow && a.Message == "no" && a.Interrupt }, "", false},
		{"an addRules deny is no yes", event.AskToolUse, `{"behavior":"deny","message":"no","updatedPermissions":[{"type":"addRules","behavior":"allow"}]}`, func(a event.Answer) bool { return !a.Allow && !a.Always }, "", false},
		{"sdk allow that sets a mode", event.AskToolUse, `{"behavior":"allow","updatedPermissions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}]}`, func(a event.Answer) bool { return a.Allow }, "acceptEdits", false},
		{"plan: ponder option", event.AskPlanExit, `{"option":"manual"}`, func(a event.Answer) bool { return a.Option == "manual" }, "", false},
		{"plan: sdk allow", event.AskPlanExit, `{"behavior":"allow","updatedInput":{"plan":"p"}}`, func(a event.Answer) bool { return a.Option == "approve" && a.EditedPlan != nil && *a.EditedPlan == "p" }, "", false},
		{"plan: sdk allow into acceptEdits", event.AskPlanExit, `{"behavior":"allow","updatedPermissions":[{"type":"setMode","mode":"acceptEdits"}]}`, func(a event.Answer) bool { return a.Option == "accept-edits" }, "", false},
		{"plan: sdk allow into default", event.AskPlanExit, `{"behavior":"allow","updatedPermissions":[{"type":"setMode","mode":"default"}]}`, func(a event.Answer) bool { return a.Option == "manual" }, "", false},
		{"plan: sdk allow into bypass", event.AskPlanExit, `{"behavior":"allow","updatedPermissions":[{"type":"setMode","mode":"bypassPermissions"}]}`, func(a event.Answer) bool { return a.Option == "bypass" }, "", false},
		{"plan: sdk deny", event.AskPlanExit, `{"behavior":"deny","message":"smaller"}`, func(a event.Answer) bool { return a.Option == "reject" && a.Feedback == "smaller" }, "", false},
		{"questions: ponder", event.AskUser, `{"answers":{"Q?":"A"}}`, func(a event.Answer) bool { return a.Answers["Q?"] == "A" }, "", false},
		{"questions: sdk", event.AskUser, `{"behavior":"allow","updatedInput":{"questions":[],"answers":{"Q?":["A","B"]}}}`, func(a event.Answer) bool { return a.Answers["Q?"] == "A, B" }, "", false},
		{"questions: sdk deny", event.AskUser, `{"behavior":"deny","message":"later"}`, nil, "", true},
		{"enter plan mode", event.AskEnterPlan, `{"behavior":"allow"}`, func(a event.Answer) bool { return a.Allow }, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, mode, dismiss, err := toAnswer(tc.kind, parse(t, tc.reply))
			if err != nil {
				t.Fatal(err)
			}
			if dismiss != tc.dismiss || mode != tc.mode || (tc.check != nil && !tc.check(a)) {
				t.Errorf("got %+v, mode %q, dismiss %v", a, mode, dismiss)
			}
		})
	}
	for _, bad := range []struct {
		kind  event.QuestionKind
		reply string
	}{
		{event.AskUser, `{"answers":{"Q?":{"x":1}}}`},
		{event.AskUser, `{"answers":[1]}`},
	} {
		if _, _, _, err := toAnswer(bad.kind, parse(t, bad.reply)); err == nil {
			t.Errorf("%s %s was accepted", bad.kind, bad.reply)
		}
	}
}

func TestHookOutputs(t *testing.T) {
	for _, tc := range []struct {
		ev   event.HookEvent
		in   string
		want event.HookOutput
	}{
		{event.HookPreToolUse, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`, event.HookOutput{Decision: "deny", Reason: "no"}},
		{event.HookPreToolUse, `{"decision":"block","reason":"old style"}`, event.HookOutput{Decision: "deny", Reason: "old style"}},
		{event.HookPreToolUse, `{"decision":"approve"}`, event.HookOutput{Decision: "allow"}},
		{event.HookPreToolUse, `{"hookSpecificOutput":{"permissionDecision":"ask"}}`, event.HookOutput{Decision: "ask"}},
		{event.HookStop, `{"decision":"block","reason":"more"}`, event.HookOutput{Decision: "block", Reason: "more"}},
		{event.HookUserPromptSubmit, `{"continue":false,"stopReason":"halt","systemMessage":"hi"}`, event.HookOutput{Stop: true, StopReason: "halt", SystemMessage: "hi"}},
		{event.HookPostToolUse, `{"hookSpecificOutput":{"additionalContext":"ctx"}}`, event.HookOutput{Context: "ctx"}},
		{event.HookPreToolUse, `{"async":true,"decision":"block"}`, event.HookOutput{}},
		{event.HookPreToolUse, `null`, event.HookOutput{}},
	} {
		got, err := readHookOutput(tc.ev, json.RawMessage(tc.in))
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s: got %+v %v, want %+v", tc.ev, tc.in, got, err, tc.want)
		}
	}
	if _, err := readHookOutput(event.HookStop, json.RawMessage(`[1]`)); err == nil {
		t.Error("a list was read as hook output")
	}
}

func TestSuggestionsAndPrompts(t *testing.T) {
	s := suggestion("Bash(git diff:*)")
	rules := s["rules"].([]any)[0].(map[string]any)
	if rules["toolName"] != "Bash" || rules["ruleContent"] != "git diff:*" || s["behavior"] != "allow" {
		t.Errorf("suggestion %v", s)
	}
	if s := suggestion("Read"); s["rules"].([]any)[0].(map[string]any)["ruleContent"] != nil {
		t.Errorf("suggestion for a bare tool %v", s)
	}
	for in, want := range map[string]string{`""`: "", `[""]`: "", `"be terse"`: "be terse", `["a","b"]`: "a\n\nb", `null`: ""} {
		got, ok := promptText(json.RawMessage(in))
		if got != want || ok != (want != "") {
			t.Errorf("promptText(%s) = %q %v", in, got, ok)
		}
	}
}
