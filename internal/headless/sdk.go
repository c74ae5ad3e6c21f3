package headless

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ponder-agent/ponder/event"
)

// This file is the Claude Agent SDK's dialect of stream-json: its hosts
// know one question, can_use_tool, and answer every question with a
// permission result ({"behavior":"allow"|"deny",…}). Plan approvals,
// entering plan mode and the model's questions reach them as the
// ExitPlanMode, EnterPlanMode and AskUserQuestion tools asking to run.
//
// Whatever the host answers, the permission engine decided first: a host
// is asked only about calls that may run once somebody says yes. A write
// in plan mode is refused before any host hears of it, and the host
// learns of the refusal from a permission_denied message.

// sdkControlRequest is how a question reaches a host of the SDK's
// dialect.
func sdkControlRequest(q event.Question) map[string]any {
	req := map[string]any{"subtype": "can_use_tool", "tool_use_id": q.ToolUseID}
	if q.ToolUseID == "" {
		req["tool_use_id"] = "ponder_" + q.ID
	}
	switch q.Kind {
	case event.AskToolUse:
		req["tool_name"] = q.Tool
		req["input"] = objectOr(q.Input)
		req["decision_reason"] = q.Reason
		req["reason"] = q.Reason
		if q.Suggest != "" {
			req["suggested_rule"] = q.Suggest
			req["permission_suggestions"] = []any{suggestion(q.Suggest)}
		}
	case event.AskPlanExit:
		req["tool_name"] = "ExitPlanMode"
		req["input"] = map[string]any{"plan": q.Plan, "planFilePath": q.PlanFile}
		req["decision_reason"] = "The plan needs approval before ponder leaves plan mode."
		req["plan_file"] = q.PlanFile
		req["options"] = q.Options
		if q.TeamRequestID != "" {
			req["team_request_id"] = q.TeamRequestID
		}
		req["permission_suggestions"] = []any{
			map[string]any{"type": "setMode", "mode": event.ModeAcceptEdits, "destination": "session"},
			map[string]any{"type": "setMode", "mode": event.ModeDefault, "destination": "session"},
		}
	case event.AskEnterPlan:
		req["tool_name"] = "EnterPlanMode"
		req["input"] = map[string]any{}
		req["decision_reason"] = "The model asks to switch to plan mode."
	case event.AskUser:
		req["tool_name"] = "AskUserQuestion"
		req["input"] = map[string]any{"questions": q.Questions}
		req["decision_reason"] = "The model has questions for the user."
	}
	if q.AgentID != "" {
		req["agent_id"] = q.AgentID
	}
	return map[string]any{"type": "control_request", "request_id": q.ID, "request": req}
}

// suggestion is a rule as the SDK's permission update that adds it.
func suggestion(rule string) map[string]any {
	name, content := rule, ""
	if i := strings.IndexByte(rule, '('); i > 0 && strings.HasSuffix(rule, ")") {
		name, content = rule[:i], rule[i+1:len(rule)-1]
	}
	r := map[string]any{"toolName": name}
	if content != "" {
		r["ruleContent"] = content
	}
	return map[string]any{"type": "addRules", "rules": []any{r}, "behavior": "allow", "destination": "session"}
}

// reply is an answer to a question, in either dialect: ponder's fields
// and the SDK's permission result.
type reply struct {
	Behavior string          `json:"behavior"`
	Message  string          `json:"message"`
	Always   bool            `json:"always"`
	Option   string          `json:"option"`
	Feedback string          `json:"feedback"`
	Plan     *string         `json:"plan"`
	Answers  json.RawMessage `json:"answers"`
	// The SDK's.
	UpdatedInput       json.RawMessage    `json:"updatedInput"`
	UpdatedPermissions []permissionUpdate `json:"updatedPermissions"`
	Interrupt          bool               `json:"interrupt"`
}

// permissionUpdate is one of the SDK's permission updates; ponder acts on
// setMode, and on addRules with behavior allow as "don't ask again".
type permissionUpdate struct {
	Type     string `json:"type"`
	Mode     string `json:"mode"`
	Behavior string `json:"behavior"`
}

// setMode returns the mode a reply's permission updates set, or "".
func (r reply) setMode() string {
	mode := ""
	for _, u := range r.UpdatedPermissions {
		if u.Type == "setMode" {
			mode = u.Mode
		}
	}
	return mode
}

// addsAllowRule says the reply asks not to be asked again.
func (r reply) addsAllowRule() bool {
	for _, u := range r.UpdatedPermissions {
		if u.Type == "addRules" && (u.Behavior == "" || u.Behavior == "allow") {
			return true
		}
	}
	return false
}

// answers reads question answers given as text or as lists of labels.
func answers(raw json.RawMessage) (map[string]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var loose map[string]any
	if err := json.Unmarshal(raw, &loose); err != nil {
		return nil, fmt.Errorf("answers must be an object of question to answer: %v", err)
	}
	out := map[string]string{}
	for q, v := range loose {
		switch v := v.(type) {
		case string:
			out[q] = v
		case []any:
			var parts []string
			for _, p := range v {
				parts = append(parts, fmt.Sprint(p))
			}
			out[q] = strings.Join(parts, ", ")
		default:
			return nil, fmt.Errorf("the answer to %q must be text or a list of labels", q)
		}
	}
	return out, nil
}

// planOption maps the mode a host's approval of ExitPlanMode sets to a
// plan approval option.
func planOption(mode string) string {
	switch mode {
	case event.ModeAcceptEdits:
		return event.OptionAcceptEdits
	case event.ModeDefault:
		return event.OptionManual
	case event.ModeBypass:
		return event.OptionBypass
	}
	return event.OptionApprove
}

// toAnswer turns a reply into the answer of a question of kind. dismiss
// says the reply withdraws the question without an answer (a host that
// declines the model's questions); mode is a mode change the reply asks
// for besides (an SDK permission update), to make after answering.
func toAnswer(kind event.QuestionKind, r reply) (ans event.Answer, mode string, dismiss bool, err error) {
	switch kind {
	case event.AskToolUse, event.AskEnterPlan:
		ans = event.Answer{Allow: r.Behavior == "allow", Message: r.Message, Interrupt: r.Interrupt,
			Always: r.Always || (r.Behavior == "allow" && r.addsAllowRule())}
		if kind == event.AskToolUse && ans.Allow && len(r.UpdatedInput) > 0 && string(r.UpdatedInput) != "null" {
			ans.UpdatedInput = r.UpdatedInput
		}
		return ans, r.setMode(), false, nil
	case event.AskPlanExit:
		opt, feedback, plan := r.Option, r.Feedback, r.Plan
		switch {
		case opt != "":
		case r.Behavior == "allow":
			opt = planOption(r.setMode())
			if p := editedPlan(r.UpdatedInput); p != nil {
				plan = p
			}
		case r.Behavior == "deny":
			opt = event.OptionReject
			if feedback == "" {
				feedback = r.Message
			}
		default:
			// No option yet: comments alone send the plan back, and
			// the check of the whole answer refuses anything else
			// (planExitAnswer).
		}
		return event.Answer{Option: opt, Feedback: feedback, EditedPlan: plan}, "", false, nil
	case event.AskUser:
		raw := r.Answers
		if r.Behavior == "deny" {
			return ans, "", true, nil
		}
		if len(raw) == 0 && len(r.UpdatedInput) > 0 {
			var in struct {
				Answers json.RawMessage `json:"answers"`
			}
			if err := json.Unmarshal(r.UpdatedInput, &in); err != nil {
				return ans, "", false, fmt.Errorf("updatedInput: %v", err)
			}
			raw = in.Answers
		}
		a, err := answers(raw)
		if err != nil {
			return ans, "", false, err
		}
		return event.Answer{Answers: a}, "", false, nil
	}
	return ans, "", false, fmt.Errorf("unknown question kind %q", kind)
}

// editedPlan returns the plan of an ExitPlanMode input a host changed, or
// nil when it names none.
func editedPlan(input json.RawMessage) *string {
	if len(input) == 0 {
		return nil
	}
	var in struct {
		Plan *string `json:"plan"`
	}
	if json.Unmarshal(input, &in) != nil {
		return nil
	}
	return in.Plan
}
