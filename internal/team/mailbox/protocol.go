package mailbox

import (
	"fmt"
	"time"
)

// Text is the payload of a TypeText message.
type Text struct {
	Text string `json:"text"`
	// Summary is an optional one-line preview for a list of messages.
	Summary string `json:"summary,omitempty"`
}

// PlanApprovalRequest is what a teammate that must plan first sends to
// the lead when it leaves plan mode: the plan, where it is written, and
// the ID the answer must carry. The teammate then waits for a
// PlanApprovalResponse with the same RequestID before changing anything.
type PlanApprovalRequest struct {
	RequestID string `json:"request_id"`
	// From is the teammate asking (the message's From, repeated so the
	// payload reads on its own).
	From        string    `json:"from"`
	PlanContent string    `json:"plan_content"`
	PlanPath    string    `json:"plan_path"`
	Timestamp   time.Time `json:"timestamp"`
}

// PlanApprovalResponse is the lead's answer to a PlanApprovalRequest.
type PlanApprovalResponse struct {
	RequestID string `json:"request_id"`
	Approved  bool   `json:"approved"`
	// Feedback says what to change when the plan is rejected, or adds
	// notes to an approval.
	Feedback string `json:"feedback,omitempty"`
	// Mode is the permission mode the teammate switches to when
	// approved (a ponder permission mode name such as "acceptEdits");
	// empty means the mode it was in before planning.
	Mode string `json:"mode,omitempty"`
	// Model optionally names the model to implement the plan with.
	Model string `json:"model,omitempty"`
	// Signature is the lead's HMAC of the answer under the team's key
	// (package team signs and checks it); an answer without a valid one
	// is ignored.
	Signature string `json:"signature,omitempty"`
}

// ShutdownRequest asks a teammate to stop once its current work is done.
type ShutdownRequest struct {
	RequestID string `json:"request_id"`
	Reason    string `json:"reason,omitempty"`
}

// ShutdownResponse answers a ShutdownRequest: Approve true means the
// teammate is stopping; false carries the reason it cannot yet.
type ShutdownResponse struct {
	RequestID string `json:"request_id"`
	Approve   bool   `json:"approve"`
	Reason    string `json:"reason,omitempty"`
}

// Idle tells the lead that a teammate has nothing left to do.
type Idle struct {
	// Summary says what the teammate last did, for the lead's list.
	Summary string `json:"summary,omitempty"`
}

// ModeLimit is the freest permission mode a teammate may work in from
// now on (a ponder permission mode name), sent by a lead whose own mode
// became stricter. A receiver only ever lowers its limit with it, so a
// forged one can make a teammate ask more, never less.
type ModeLimit struct {
	Mode string `json:"mode"`
}

// NewPlanApprovalRequest builds the message a teammate sends to the lead
// (to) to have its plan approved. An empty RequestID gets a new one, an
// empty From is the sender, a zero Timestamp is now.
func NewPlanApprovalRequest(team, from, to string, req PlanApprovalRequest) (Message, error) {
	if req.RequestID == "" {
		req.RequestID = NewRequestID("plan_approval")
	}
	if req.From == "" {
		req.From = from
	}
	if req.Timestamp.IsZero() {
		req.Timestamp = time.Now().UTC()
	}
	if req.PlanContent == "" {
		return Message{}, fmt.Errorf("mailbox: a plan approval request needs the plan's content")
	}
	return NewMessage(team, from, to, TypePlanApprovalRequest, req)
}

// NewPlanApprovalResponse builds the lead's answer to the teammate (to).
func NewPlanApprovalResponse(team, from, to string, resp PlanApprovalResponse) (Message, error) {
	if resp.RequestID == "" {
		return Message{}, fmt.Errorf("mailbox: a plan approval response needs the request's ID")
	}
	return NewMessage(team, from, to, TypePlanApprovalResponse, resp)
}

// PlanApprovalRequest decodes m's payload; m must be a
// TypePlanApprovalRequest with a request ID.
func (m Message) PlanApprovalRequest() (PlanApprovalRequest, error) {
	var r PlanApprovalRequest
	if err := m.Decode(TypePlanApprovalRequest, &r); err != nil {
		return PlanApprovalRequest{}, err
	}
	if r.RequestID == "" {
		return PlanApprovalRequest{}, fmt.Errorf("mailbox: plan approval request %s has no request_id", m.ID)
	}
	return r, nil
}

// PlanApprovalResponse decodes m's payload; m must be a
// TypePlanApprovalResponse with a request ID.
func (m Message) PlanApprovalResponse() (PlanApprovalResponse, error) {
	var r PlanApprovalResponse
	if err := m.Decode(TypePlanApprovalResponse, &r); err != nil {
		return PlanApprovalResponse{}, err
	}
	if r.RequestID == "" {
		return PlanApprovalResponse{}, fmt.Errorf("mailbox: plan approval response %s has no request_id", m.ID)
	}
	return r, nil
}
