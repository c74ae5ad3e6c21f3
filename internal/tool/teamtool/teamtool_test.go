package teamtool

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ponder-agent/ponder/internal/tool"
)

type fakeTeam struct{ sent []Outgoing }

func (f *fakeTeam) SpawnTeammate(context.Context, Spawn) (string, error) { return "started", nil }
func (f *fakeTeam) SendMessage(_ context.Context, m Outgoing) (string, error) {
	f.sent = append(f.sent, m)
	return "sent", nil
}

// A model chooses neither the sender nor the message id, and an answer to
// a plan needs the request it answers.
func TestSendMessageInput(t *testing.T) {
	bad := []string{
		`{"to":"lead","message":"hi","from":"lead"}`,
		`{"to":"alice","message":"hi","id":"01abc"}`,
		`{"to":"alice","type":"plan_approval_response","approve":true}`,
		`{"to":"alice","type":"plan_approval_response","request_id":"r1"}`,
		`{"to":"alice","type":"plan_approval_response","request_id":"r1","approve":false}`,
		`{"to":"alice","message":"hi","approve":true,"request_id":"r1"}`,
		`{"to":"alice","type":"shutdown_response","message":"x"}`,
		`{"to":"alice"}`,
	}
	f := &fakeTeam{}
	s := NewSendMessage(f)
	for _, in := range bad {
		if _, err := s.Prepare(&tool.Env{}, json.RawMessage(in)); err == nil {
			t.Errorf("input %s was accepted", in)
		}
	}
	c, err := s.Prepare(&tool.Env{}, json.RawMessage(`{"to":"alice","type":"plan_approval_response","request_id":"r1","approve":false,"feedback":"more tests"}`))
	if err != nil {
		t.Fatal(err)
	}
	c.Run(context.Background())
	if len(f.sent) != 1 || f.sent[0].Response == nil || f.sent[0].Response.Approve || f.sent[0].Response.Feedback != "more tests" {
		t.Errorf("sent %+v", f.sent)
	}
}

// A teammate's mode is one a lead may give; plan mode refuses the call
// as it refuses any agent that can write, unless the teammate must plan
// first: it changes nothing before its plan is approved.
func TestSpawnTeammateInput(t *testing.T) {
	s := NewSpawnTeammate(&fakeTeam{})
	for _, in := range []string{`{"name":"a","prompt":""}`, `{"name":"a","prompt":"x","mode":"bypassPermissions"}`, `{"name":"a","prompt":"x","session_id":"s"}`} {
		if _, err := s.Prepare(&tool.Env{}, json.RawMessage(in)); err == nil {
			t.Errorf("input %s was accepted", in)
		}
	}
	c, err := s.Prepare(&tool.Env{}, json.RawMessage(`{"name":"a","prompt":"x","plan_mode_required":true}`))
	if err != nil {
		t.Fatal(err)
	}
	if acc := c.Access(); !acc.AgentReadOnly {
		t.Error("a teammate that must plan first is not declared read-only; a lead in plan mode could not start it")
	}
	c, err = s.Prepare(&tool.Env{}, json.RawMessage(`{"name":"a","prompt":"x","mode":"default"}`))
	if err != nil {
		t.Fatal(err)
	}
	if acc := c.Access(); acc.AgentReadOnly {
		t.Error("a teammate free to write is declared read-only; plan mode would let the lead start it")
	}
}
