package mailbox

import (
	"encoding/json"
	"fmt"
	"time"
)

// Version is the version of the Message encoding this package writes. A
// message of a higher version is refused on receipt (and kept, not
// dropped) rather than misread; new optional fields do not need a new
// version.
const Version = 1

// MaxMessageBytes bounds an encoded message, plan included. It is below
// the default payload limit of a NATS server (1 MiB), so both mailboxes
// accept exactly the same messages.
const MaxMessageBytes = 900 << 10

// Type names what a message asks or tells. The set is open: the
// constants are the kinds ponder's team protocol uses, and a receiver
// must ignore (acknowledge and skip) a type it does not know.
type Type string

// The message types of the team protocol.
const (
	// TypeText is a plain message from one member to another; its
	// payload is a Text.
	TypeText Type = "text"
	// TypePlanApprovalRequest is sent by a teammate that must have its
	// plan approved, to the lead; its payload is a PlanApprovalRequest.
	TypePlanApprovalRequest Type = "plan_approval_request"
	// TypePlanApprovalResponse is the lead's answer, to the teammate;
	// its payload is a PlanApprovalResponse.
	TypePlanApprovalResponse Type = "plan_approval_response"
	// TypeShutdownRequest asks a teammate to finish and stop; its
	// payload is a ShutdownRequest.
	TypeShutdownRequest Type = "shutdown_request"
	// TypeShutdownResponse is the teammate's answer; its payload is a
	// ShutdownResponse.
	TypeShutdownResponse Type = "shutdown_response"
	// TypeIdle tells the lead that a teammate finished its turn and
	// waits for work; its payload is an Idle.
	TypeIdle Type = "idle"
	// TypeModeLimit tells a teammate that its lead works in a stricter
	// mode now; its payload is a ModeLimit.
	TypeModeLimit Type = "mode_limit"
)

// Message is one message between two members of a team. Build it with
// NewMessage, which gives it its ID: the ID stays the same when the
// message is sent again, which is what lets a retry be stored once and
// a receiver skip a message it has already applied.
type Message struct {
	// V is the encoding version (Version).
	V int `json:"v"`
	// ID is unique per message and stable across retries.
	ID   string `json:"id"`
	Team string `json:"team"`
	From string `json:"from"`
	To   string `json:"to"`
	Type Type   `json:"type"`
	// Payload is the type's JSON object (see the typed helpers).
	Payload   json.RawMessage `json:"payload,omitempty"`
	CreatedAt time.Time       `json:"created_at"`
}

// NewMessage builds a message of type typ from from to to in team, with
// payload encoded as JSON (nil for none), a new ID and the current time.
// It checks the names and the type; Send checks the rest.
func NewMessage(team, from, to string, typ Type, payload any) (Message, error) {
	m := Message{V: Version, ID: NewID(), Team: team, From: from, To: to, Type: typ, CreatedAt: time.Now().UTC()}
	if payload != nil {
		raw, err := json.Marshal(payload)
		if err != nil {
			return Message{}, fmt.Errorf("mailbox: encoding the %s payload: %w", typ, err)
		}
		m.Payload = raw
	}
	if err := m.Validate(); err != nil {
		return Message{}, err
	}
	return m, nil
}

// Validate checks that m is a message this package can store and
// deliver: known version, valid ID, names and type, a creation time, a
// payload that is a JSON object, and an encoded size within
// MaxMessageBytes.
func (m Message) Validate() error {
	switch {
	case m.V < 1:
		return fmt.Errorf("mailbox: message %s has no version", quote(m.ID))
	case m.V > Version:
		return fmt.Errorf("mailbox: message %s has version %d; this ponder reads up to version %d", quote(m.ID), m.V, Version)
	}
	if err := validateID(m.ID); err != nil {
		return err
	}
	if err := ValidateName("team", m.Team); err != nil {
		return err
	}
	if err := ValidateName("sender", m.From); err != nil {
		return err
	}
	if err := ValidateName("recipient", m.To); err != nil {
		return err
	}
	if err := validateType(string(m.Type)); err != nil {
		return err
	}
	if m.CreatedAt.IsZero() {
		return fmt.Errorf("mailbox: message %s has no creation time", m.ID)
	}
	if len(m.Payload) > 0 {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(m.Payload, &obj); err != nil || obj == nil {
			return fmt.Errorf("mailbox: message %s: the payload must be a JSON object", m.ID)
		}
	}
	return nil
}

// encode returns m as JSON, checked against MaxMessageBytes.
func (m Message) encode() ([]byte, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	data, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("mailbox: encoding message %s: %w", m.ID, err)
	}
	if len(data) > MaxMessageBytes {
		return nil, fmt.Errorf("mailbox: message %s is %d bytes, more than the %d a message may have", m.ID, len(data), MaxMessageBytes)
	}
	return data, nil
}

// decodeMessage parses a stored message and checks that it belongs to
// team and to the inbox of to. where names the source for the error.
func decodeMessage(data []byte, team, to, where string) (Message, error) {
	if len(data) > MaxMessageBytes {
		return Message{}, fmt.Errorf("mailbox: %s: %d bytes, more than the %d a message may have", where, len(data), MaxMessageBytes)
	}
	var m Message
	if err := json.Unmarshal(data, &m); err != nil {
		return Message{}, fmt.Errorf("mailbox: %s: not a message: %w", where, err)
	}
	if err := m.Validate(); err != nil {
		return Message{}, fmt.Errorf("%w (in %s)", err, where)
	}
	if m.Team != team || m.To != to {
		return Message{}, fmt.Errorf("mailbox: %s: message %s is addressed to %s in team %s, found in the inbox of %s in team %s", where, m.ID, quote(m.To), quote(m.Team), to, team)
	}
	return m, nil
}

// Decode parses m's payload into v, after checking that m has type typ.
func (m Message) Decode(typ Type, v any) error {
	if m.Type != typ {
		return fmt.Errorf("mailbox: message %s is a %s, not a %s", m.ID, quote(string(m.Type)), typ)
	}
	if len(m.Payload) == 0 {
		return fmt.Errorf("mailbox: %s message %s has no payload", typ, m.ID)
	}
	if err := json.Unmarshal(m.Payload, v); err != nil {
		return fmt.Errorf("mailbox: %s message %s: %w", typ, m.ID, err)
	}
	return nil
}
