package sdk

import "github.com/ponder-agent/ponder/event"

// Allow answers a question whether a tool call may run (or whether the
// model may enter plan mode) with yes.
func Allow() event.Answer { return event.Answer{Allow: true} }

// AllowAlways answers yes and adds the rule the question suggests
// (event.Question.Suggest), so calls like this one no longer ask.
func AllowAlways() event.Answer { return event.Answer{Allow: true, Always: true} }

// Deny answers no, telling the model why.
func Deny(message string) event.Answer { return event.Answer{Message: message} }

// ApprovePlan approves a plan (event.AskPlanExit) with one of the
// question's options: event.OptionAcceptEdits, OptionManual,
// OptionClearContext, OptionApprove (back to the mode before plan mode)
// or OptionBypass where allowed.
func ApprovePlan(option string) event.Answer { return event.Answer{Option: option} }

// ApproveEditedPlan approves a plan after changing it; the plan file is
// replaced and the model is told it was edited.
func ApproveEditedPlan(option, plan string) event.Answer {
	return event.Answer{Option: option, EditedPlan: &plan}
}

// RejectPlan sends a plan back with feedback; plan mode goes on.
func RejectPlan(feedback string) event.Answer {
	return event.Answer{Option: event.OptionReject, Feedback: feedback}
}

// AnswerQuestions answers the model's questions (event.AskUser), each by
// its question text: a label, several labels joined by ", ", or free
// text.
func AnswerQuestions(answers map[string]string) event.Answer { return event.Answer{Answers: answers} }
