package event

// The states of a teammate (TeammateState.State).
const (
	// TeammateWorking: the teammate is running a turn.
	TeammateWorking = "working"
	// TeammateAwaitingApproval: its plan waits for the lead's answer.
	TeammateAwaitingApproval = "awaiting_approval"
	// TeammateIdle: it finished its turn and waits for messages.
	TeammateIdle = "idle"
	// TeammateStopped: it is no longer running.
	TeammateStopped = "stopped"
)

// TeammateState says what a teammate of this session's team is doing, as
// the lead knows it: a state it reported, or one the lead saw (a request
// that arrived, a teammate it started or that ended).
type TeammateState struct {
	Team  string `json:"team"`
	Name  string `json:"name"`
	State string `json:"state"`
	// SessionID is the teammate's own session, when known.
	SessionID string `json:"session_id,omitempty"`
	// RequestID is the plan approval request it waits on.
	RequestID string `json:"request_id,omitempty"`
	// Summary says what it last did.
	Summary string `json:"summary,omitempty"`
}

// TeamMessage says a message between members of the team reached this
// session's inbox, or was sent from it (Sent).
type TeamMessage struct {
	Team string `json:"team"`
	From string `json:"from"`
	To   string `json:"to"`
	// Type is the message's kind: text, plan_approval_request,
	// plan_approval_response, idle, shutdown_request, …
	Type string `json:"message_type"`
	// Text is the message's text, a plan, or feedback.
	Text      string `json:"text,omitempty"`
	RequestID string `json:"request_id,omitempty"`
	// Approved is set on a plan approval response.
	Approved *bool `json:"approved,omitempty"`
	Sent     bool  `json:"sent,omitempty"`
}

func (TeammateState) Kind() string { return "teammate_state" }
func (TeamMessage) Kind() string   { return "team_message" }
