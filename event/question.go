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
	// WithNotes is the option as it reads while the user has comments
	// on lines of the plan, which then go with it (Answer.Annotations):
	// with an approval to the implementing model as notes, with a
	// rejection as what to change. "" says it cannot carry them.
	WithNotes string `json:"with_notes,omitempty"`
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
	// ToolUseID is the tool call the question is about (the call that
	// needs a yes, EnterPlanMode, ExitPlanMode or AskUserQuestion), when
	// a call asks it; front ends that show calls attach the question to it.
	ToolUseID string `json:"tool_use_id,omitempty"`

	// For AskToolUse: the call and why it needs a yes.
	Tool   string          `json:"tool,omitempty"`
	Input  json.RawMessage `json:"input,omitempty"`
	Reason string          `json:"reason,omitempty"`
	// Suggest is a rule that would allow calls of this kind from now on
	// ("yes, and don't ask again").
	Suggest string `json:"suggest,omitempty"`
	// Path is the file a Write or Edit changes, relative to the project
	// when it is inside it; Diff is the change as a unified diff of the
	// file's lines (empty when it cannot be known before the call runs).
	Path string `json:"path,omitempty"`
	Diff string `json:"diff,omitempty"`

	// For AskPlanExit: the plan and the options to pick from.
	Plan     string   `json:"plan,omitempty"`
	PlanFile string   `json:"plan_file,omitempty"`
	Options  []Option `json:"options,omitempty"`
	// Permissions are what the plan says its implementation will need;
	// approving grants them for the session (see Answer.Grant).
	Permissions []PlanPermission `json:"permissions,omitempty"`
	// PreviousPlan is the plan as it was last sent back, when it was;
	// ChangedLines are the 1-based lines of Plan that are new since.
	PreviousPlan string `json:"previous_plan,omitempty"`
	ChangedLines []int  `json:"changed_lines,omitempty"`
	// Stale are files the plan names that changed since it was written;
	// the options then include re-planning.
	Stale []string `json:"stale,omitempty"`
	// Models are the models the implementation may be given (the first
	// is the one in use).
	Models []string `json:"models,omitempty"`
	// TeamRequestID, for a teammate's plan (AgentID "teammate:NAME"),
	// is the request_id of its plan_approval_request in the team's
	// mailbox, which the lead's SendMessage answer names too.
	TeamRequestID string `json:"team_request_id,omitempty"`

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
	// Annotations are the user's comments on lines of the plan; they go
	// with a rejection, which they imply when Option is empty, or with an
	// approval whose option has WithNotes, as notes for the implementing
	// model.
	Annotations []Annotation `json:"annotations,omitempty"`
	// Model, with an approval, is the model that implements the plan.
	Model string `json:"model,omitempty"`
	// Grant, with an approval, lists the rules of the question's
	// Permissions to grant; nil grants those that stay inside the
	// project, an empty list none.
	Grant []string `json:"grant,omitempty"`

	// Answers maps each AskUser question to the chosen label(s) or text.
	Answers map[string]string `json:"answers,omitempty"`
}

// PlanPermission is a permission a plan asks for: a rule as settings
// write it ("Bash(go test:*)", "Edit(src/**)") and why the plan needs it.
type PlanPermission struct {
	Rule   string `json:"rule"`
	Reason string `json:"reason,omitempty"`
	// Outside says the rule would let something reach outside the
	// project (write or read files there, run any program); Why says
	// how. Such rules are granted only when named.
	Outside bool   `json:"outside,omitempty"`
	Why     string `json:"why,omitempty"`
}

// Annotation is a comment on one line of a plan (1-based).
type Annotation struct {
	Line    int    `json:"line"`
	Comment string `json:"comment"`
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
