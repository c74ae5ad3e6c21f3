package event

import "encoding/json"

// QuestionKind names what a question asks.
type QuestionKind string

// The questions a session puts to the person or program in charge.
const (
	// AskToolUse asks whether a tool call may run.
	AskToolUse QuestionKind = "can_use_tool"
	// AskEnterPlan asks whether the model may switch to plan mode.
	AskEnterPlan QuestionKind = "enter_plan_mode"
	// AskPlanExit presents a plan for approval.
	AskPlanExit QuestionKind = "plan_exit"
	// AskUser relays the model's multiple-choice questions.
	AskUser QuestionKind = "ask_user_question"
)

// Option is one answer a plan approval offers.
type Option struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// UserQuestion is one question of an AskUserQuestion call.
type UserQuestion struct {
	Question    string       `json:"question"`
	Header      string       `json:"header"`
	Options     []UserOption `json:"options"`
	MultiSelect bool         `json:"multiSelect"`
}

// UserOption is one choice of a UserQuestion.
type UserOption struct {
	Label       string `json:"label"`
	Description string `json:"description"`
}

// Question is put to whoever is in charge of a session. Front ends show
// it and answer it by its ID.
type Question struct {
	ID      string       `json:"id"`
	Kind    QuestionKind `json:"kind"`
	AgentID string       `json:"agent_id,omitempty"`
	// ToolUseID is the id of the tool call that asks (the call to be
	// allowed, or the ExitPlanMode, EnterPlanMode or AskUserQuestion call
	// that puts the question), when a call asks.
	ToolUseID string `json:"tool_use_id,omitempty"`

	// For AskToolUse: the call and why it needs a yes.
	Tool   string          `json:"tool,omitempty"`
	Input  json.RawMessage `json:"input,omitempty"`
	Reason string          `json:"reason,omitempty"`
	// Suggest is a rule that would allow calls of this kind from now on
	// ("yes, and don't ask again").
	Suggest string `json:"suggest,omitempty"`

	// For AskPlanExit: the plan and the options to pick from.
	Plan     string   `json:"plan,omitempty"`
	PlanFile string   `json:"plan_file,omitempty"`
	Options  []Option `json:"options,omitempty"`

	// For AskUser: the model's questions.
	Questions []UserQuestion `json:"questions,omitempty"`
}

// Answer is the reply to a Question.
type Answer struct {
	// Allow answers AskToolUse and AskEnterPlan.
	Allow bool `json:"allow,omitempty"`
	// Always asks to add the question's Suggest rule for the session.
	Always bool `json:"always,omitempty"`
	// Message tells the model why it was refused or what to do instead.
	Message string `json:"message,omitempty"`
	// UpdatedInput, with Allow, replaces the call's input. The call is
	// judged again with it: what the rules refuse stays refused.
	UpdatedInput json.RawMessage `json:"updated_input,omitempty"`
	// Interrupt, with a refusal, also ends the turn.
	Interrupt bool `json:"interrupt,omitempty"`

	// Option is the chosen plan approval option; Feedback goes with a
	// rejection; EditedPlan, when not nil, replaces the plan file.
	Option     string  `json:"option,omitempty"`
	Feedback   string  `json:"feedback,omitempty"`
	EditedPlan *string `json:"edited_plan,omitempty"`

	// Answers maps each AskUser question to the chosen label(s) or text.
	Answers map[string]string `json:"answers,omitempty"`
}

// QuestionAsked carries a question that waits for an answer.
type QuestionAsked struct {
	Question Question `json:"question"`
}

// QuestionClosed says a question no longer waits, and how it ended. Every
// QuestionAsked is followed by one QuestionClosed.
type QuestionClosed struct {
	ID  string `json:"id"`
	How string `json:"how"`
}

// How a question ends.
const (
	// Answered: an answer came.
	Answered = "answered"
	// Dismissed: whoever was asked closed it without an answer.
	Dismissed = "dismissed"
	// Cancelled: the turn that asked it was interrupted.
	Cancelled = "cancelled"
	// Closed: the session, or its answerer, went away.
	Closed = "closed"
)

func (QuestionAsked) Kind() string  { return "question" }
func (QuestionClosed) Kind() string { return "question_closed" }
