package event

// ModeChanged says the permission mode changed, and through which path
// (tool, approval, flag, settings, control, tui, slash, sdk, resume).
type ModeChanged struct {
	From string `json:"from"`
	To   string `json:"to"`
	Via  string `json:"via"`
}

// PlanModeEntered says plan mode began; PlanFile is where the plan goes.
type PlanModeEntered struct {
	PlanFile   string `json:"plan_file"`
	PlanExists bool   `json:"plan_exists"`
	Via        string `json:"via"`
}

// PlanExitRequested says the model asked to leave plan mode with a plan.
type PlanExitRequested struct {
	AgentID  string   `json:"agent_id,omitempty"`
	Plan     string   `json:"plan"`
	PlanFile string   `json:"plan_file"`
	Options  []Option `json:"options"`
	// Permissions are what the plan asks to be granted.
	Permissions []PlanPermission `json:"permissions,omitempty"`
}

// PlanApproved says the plan was approved; Mode is the mode now in force.
type PlanApproved struct {
	Option   string `json:"option"`
	Mode     string `json:"permission_mode"`
	PlanFile string `json:"plan_file"`
	Edited   bool   `json:"edited,omitempty"`
	// Model is the model the implementation was given, when the
	// approval chose one; Granted are the rules it granted.
	Model   string   `json:"model,omitempty"`
	Granted []string `json:"granted,omitempty"`
	// Title is the plan's title; Steps are the steps of its
	// implementation section, which become the todo list (later changes
	// of it come as TodoWrite results, ToolFinished.Todos); Files and
	// Dirs are the files and directories the plan names.
	Title string     `json:"title,omitempty"`
	Steps []TodoItem `json:"steps,omitempty"`
	Files []string   `json:"files,omitempty"`
	Dirs  []string   `json:"dirs,omitempty"`
}

// PlanRejected says the plan was sent back; plan mode goes on.
type PlanRejected struct {
	Feedback string `json:"feedback"`
	PlanFile string `json:"plan_file"`
	// Interrupted marks a request nobody answered.
	Interrupted bool `json:"interrupted,omitempty"`
	// Annotations are the comments the user left on lines of the plan.
	Annotations []Annotation `json:"annotations,omitempty"`
}

// PlanImplement says the conversation was cleared and implementation of
// the approved plan starts from the plan alone.
type PlanImplement struct {
	Plan     string `json:"plan"`
	PlanFile string `json:"plan_file"`
}

// PlanPhase says which planning phase the agent is in: explore, design,
// review, finalize or exit.
type PlanPhase struct {
	Phase string `json:"phase"`
}

func (ModeChanged) Kind() string       { return "mode_changed" }
func (PlanModeEntered) Kind() string   { return "plan_mode_entered" }
func (PlanExitRequested) Kind() string { return "plan_exit_requested" }
func (PlanApproved) Kind() string      { return "plan_approved" }
func (PlanRejected) Kind() string      { return "plan_rejected" }
func (PlanImplement) Kind() string     { return "plan_implement" }
func (PlanPhase) Kind() string         { return "plan_phase" }

// The permission modes, by the names events and hosts use.
const (
	ModeDefault     = "default"
	ModeAcceptEdits = "acceptEdits"
	ModePlan        = "plan"
	ModeBypass      = "bypassPermissions"
)

// The ways to answer a plan approval (Answer.Option), by id. Which of them
// a question offers is in its Options.
const (
	// OptionAcceptEdits approves; edits then pass without asking.
	OptionAcceptEdits = "accept-edits"
	// OptionManual approves; each edit then asks first.
	OptionManual = "manual"
	// OptionClearContext approves and starts implementing in a fresh
	// conversation from the plan alone.
	OptionClearContext = "clear-context"
	// OptionBypass approves and bypasses permissions (only where the
	// command line allowed it).
	OptionBypass = "bypass"
	// OptionApprove approves and returns to the mode before plan mode.
	OptionApprove = "approve"
	// OptionReject sends the plan back, with Answer.Feedback.
	OptionReject = "reject"
	// OptionApproveStop approves (edits then pass without asking) but
	// starts nothing: the user prompts next.
	OptionApproveStop = "approve-stop"
	// OptionReplan sends the plan back because files it names changed
	// since it was written (offered only then).
	OptionReplan = "replan"
)

// PlanReport compares an implementation with its approved plan: sent
// when the implementation's turn ends, and on request (/plan check).
type PlanReport struct {
	PlanFile string `json:"plan_file"`
	// ReportFile is where the report was written, next to the plan.
	ReportFile string      `json:"report_file,omitempty"`
	Title      string      `json:"title,omitempty"`
	Steps      []StepCheck `json:"steps,omitempty"`
	// Unplanned are files changed that the plan did not name; Untouched
	// planned files nothing changed; Commands ran outside the sandbox,
	// so what they changed is unknown.
	Unplanned []string `json:"unplanned,omitempty"`
	Untouched []string `json:"untouched,omitempty"`
	Commands  []string `json:"commands,omitempty"`
	Summary   string   `json:"summary"`
}

// StepCheck is one step of a plan and how the implementation went with
// it.
type StepCheck struct {
	Step   string     `json:"step"`
	Status StepStatus `json:"status"`
}

// StepStatus is how a step of an approved plan stands.
type StepStatus string

// The ways a step can stand.
const (
	StepDone    StepStatus = "done"
	StepSkipped StepStatus = "skipped"
	StepChanged StepStatus = "changed"
	// StepUntracked: the todo list was never updated since the approval,
	// so nothing says how the step went.
	StepUntracked StepStatus = "untracked"
)

func (PlanReport) Kind() string { return "plan_report" }
