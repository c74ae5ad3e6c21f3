package mailbox

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestNewID(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 10000 {
		id := NewID()
		if len(id) != 26 || strings.Trim(id, crockford) != "" {
			t.Fatalf("NewID = %q", id)
		}
		if seen[id] {
			t.Fatalf("NewID repeated %q", id)
		}
		seen[id] = true
	}
	t0 := time.UnixMilli(1_700_000_000_000)
	if a, b := newIDAt(t0), newIDAt(t0.Add(time.Millisecond)); a >= b {
		t.Fatalf("IDs do not sort by time: %s >= %s", a, b)
	}
	if a, b := newIDAt(time.UnixMilli(0)), newIDAt(time.UnixMilli(1<<48-1)); a >= b || a[:10] != "0000000000" || b[0] != '7' {
		t.Fatalf("time bits misplaced: %s %s", a, b)
	}
	if r := NewRequestID("plan_approval"); !strings.HasPrefix(r, "plan_approval-") || validateID(r) != nil {
		t.Fatalf("NewRequestID = %q", r)
	}
}

// TestMessageJSON pins the wire form: other ponder versions, and other
// machines, read these names.
func TestMessageJSON(t *testing.T) {
	t.Parallel()
	m := Message{V: 1, ID: "01abc", Team: "core", From: "worker", To: "lead", Type: TypePlanApprovalRequest,
		Payload:   mustJSON(t, PlanApprovalRequest{RequestID: "plan_approval-1", From: "worker", PlanContent: "do it", PlanPath: "/p.md", Timestamp: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}),
		CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	got := string(mustJSON(t, m))
	want := `{"v":1,"id":"01abc","team":"core","from":"worker","to":"lead","type":"plan_approval_request",` +
		`"payload":{"request_id":"plan_approval-1","from":"worker","plan_content":"do it","plan_path":"/p.md","timestamp":"2026-01-02T03:04:05Z"},` +
		`"created_at":"2026-01-02T03:04:05Z"}`
	if got != want {
		t.Fatalf("JSON:\n got %s\nwant %s", got, want)
	}
	resp := mustJSON(t, PlanApprovalResponse{RequestID: "r", Approved: true, Feedback: "f", Mode: "acceptEdits", Model: "m"})
	if string(resp) != `{"request_id":"r","approved":true,"feedback":"f","mode":"acceptEdits","model":"m"}` {
		t.Fatalf("response JSON: %s", resp)
	}
	if resp := mustJSON(t, PlanApprovalResponse{RequestID: "r"}); string(resp) != `{"request_id":"r","approved":false}` {
		t.Fatalf("a rejection must still say approved:false: %s", resp)
	}
}

func TestMessageValidate(t *testing.T) {
	t.Parallel()
	good, err := NewMessage("core", "lead", "worker", TypeText, Text{Text: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	cases := map[string]func(*Message){
		"no version":      func(m *Message) { m.V = 0 },
		"newer version":   func(m *Message) { m.V = Version + 1 },
		"no id":           func(m *Message) { m.ID = "" },
		"no time":         func(m *Message) { m.CreatedAt = time.Time{} },
		"payload array":   func(m *Message) { m.Payload = json.RawMessage(`[1]`) },
		"payload string":  func(m *Message) { m.Payload = json.RawMessage(`"x"`) },
		"payload null":    func(m *Message) { m.Payload = json.RawMessage(`null`) },
		"payload invalid": func(m *Message) { m.Payload = json.RawMessage(`{`) },
		"no type":         func(m *Message) { m.Type = "" },
	}
	for name, mutate := range cases {
		m := good
		mutate(&m)
		if err := m.Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// A custom type is fine: the set is open.
	custom := good
	custom.Type = "task_assignment"
	if err := custom.Validate(); err != nil {
		t.Errorf("custom type refused: %v", err)
	}
}

func TestMessageTooLarge(t *testing.T) {
	t.Parallel()
	m, err := NewMessage("core", "lead", "worker", TypeText, Text{Text: strings.Repeat("x", MaxMessageBytes)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.encode(); err == nil || !strings.Contains(err.Error(), "more than the") {
		t.Fatalf("encode of a too large message: %v", err)
	}
	if _, err := decodeMessage(make([]byte, MaxMessageBytes+1), "core", "worker", "x"); err == nil {
		t.Fatal("decoded a too large message")
	}
}

func TestPayloadHelpers(t *testing.T) {
	t.Parallel()
	if _, err := NewPlanApprovalRequest("core", "worker", "lead", PlanApprovalRequest{}); err == nil {
		t.Error("a plan approval request without a plan was built")
	}
	if _, err := NewPlanApprovalResponse("core", "lead", "worker", PlanApprovalResponse{Approved: true}); err == nil {
		t.Error("a response without a request ID was built")
	}
	req, err := NewPlanApprovalRequest("core", "worker", "lead", PlanApprovalRequest{PlanContent: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := req.PlanApprovalResponse(); err == nil || !strings.Contains(err.Error(), "not a plan_approval_response") {
		t.Errorf("decoding a request as a response: %v", err)
	}
	var x Text
	if err := req.Decode(TypeText, &x); err == nil {
		t.Error("decoded a plan request as text")
	}
	noID := req
	noID.Payload = json.RawMessage(`{"plan_content":"p"}`)
	if _, err := noID.PlanApprovalRequest(); err == nil {
		t.Error("a request without request_id decoded")
	}
	if _, err := NewMessage("core", "lead", "worker", TypeText, make(chan int)); err == nil {
		t.Error("an unencodable payload was accepted")
	}
}
