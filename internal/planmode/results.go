package planmode

import (
	"fmt"
	"strings"
)

// Texts the plan-mode tools return to the model. They are short: the
// workflow itself arrives by reminder.

// EnteredResult is EnterPlanMode's result.
func (s *Session) EnteredResult() string {
	return "Plan mode is on. Explore the code and design an approach; change nothing except the plan file " +
		s.PlanFile("") + ". Detailed instructions follow."
}

// AlreadyInPlanMode is EnterPlanMode's result when plan mode is on.
func (s *Session) AlreadyInPlanMode() string {
	return "Plan mode is already on. The plan file is " + s.PlanFile("") + "."
}

// EnterDeclinedResult tells the model the user said no to plan mode.
func EnterDeclinedResult(message string) string {
	out := "The user chose not to switch to plan mode. Continue with the task in the current mode."
	if m := strings.TrimSpace(message); m != "" {
		out += "\n\nThe user said: " + m
	}
	return out
}

// NotInPlanModeResult refuses ExitPlanMode outside plan mode.
const NotInPlanModeResult = "ExitPlanMode only works in plan mode, and plan mode is not on. If your plan was already approved, go ahead with the implementation."

// NoPlanResult refuses ExitPlanMode without a plan.
func NoPlanResult(path string) string {
	return fmt.Sprintf("There is no plan to approve: the plan file %s is missing or empty. Write your plan to that file first, then call ExitPlanMode.", path)
}

// SubagentExitResult ends a subagent's plan: no approval is involved.
const SubagentExitResult = `Your plan is recorded; nothing more is needed from you. Reply with "done" and stop.`

// ApprovedResult is ExitPlanMode's result after approval.
func ApprovedResult(a Approval) string {
	if strings.TrimSpace(a.Plan) == "" {
		return "The user approved leaving plan mode. You can go ahead now."
	}
	var b strings.Builder
	b.WriteString("The user approved your plan, so you can now make the changes. If you keep a todo list, update it first.\n\n")
	fmt.Fprintf(&b, "The plan is saved at %s; look at it again whenever you need to.\n\n", a.PlanFile)
	if a.Edited {
		b.WriteString("## Approved plan (edited by the user)\n")
	} else {
		b.WriteString("## Approved plan\n")
	}
	b.WriteString(a.Plan)
	b.WriteString(implementationNotes(a))
	return b.String()
}

// implementationNotes tells the model what the approval granted: the
// permissions it may now use without asking, and the model it runs on.
func implementationNotes(a Approval) string {
	var b strings.Builder
	if len(a.Granted) > 0 {
		b.WriteString("\n\nThe user granted these permissions for the rest of the session, so calls they cover run without asking:\n")
		for _, r := range a.Granted {
			b.WriteString("- " + r + "\n")
		}
	}
	if a.Model != "" {
		fmt.Fprintf(&b, "\n\nThe user chose the model %s to implement the plan; your next replies come from it.", a.Model)
	}
	b.WriteString(approvalNotes(a.Plan, a.Notes))
	return b.String()
}

// Implementation is the first message of a conversation cleared to carry
// out an approved plan.
func Implementation(a Approval) string {
	return fmt.Sprintf("Carry out this approved plan. It is also saved at %s.\n\n%s", a.PlanFile, a.Plan) + implementationNotes(a)
}

// ClearedResult is ExitPlanMode's result when the conversation is about to
// be cleared; it is recorded in the old conversation only.
const ClearedResult = "The user approved the plan and cleared the conversation; implementation continues in a fresh one."

// RejectedResult gives the model the user's feedback on a rejected plan.
func RejectedResult(feedback string, edited bool) string {
	return RejectedWithComments(feedback, "", nil, "", edited)
}

// InterruptedResult says nobody answered the approval request.
const InterruptedResult = "Nobody approved the plan: the approval request was closed before anyone answered. Plan mode is still on and nothing may change except the plan file. Stop here and wait for the user's next message."

// PendingResult is recorded while a headless approval waits for an answer.
const PendingResult = "The plan is waiting for the user's approval."

// ApprovedStopResult is ExitPlanMode's result when the user approved the
// plan but will say when to start it.
const ApprovedStopResult = "The user approved your plan and will tell you when to start implementing it. Do not start now; end your turn. When the user says so, carry it out step by step."
