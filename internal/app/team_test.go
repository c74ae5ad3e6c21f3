package app

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/team/mailbox"
	"github.com/ponder-agent/ponder/internal/tool/teamtool"
)

// askLead puts a plan approval request from alice in the lead's inbox and
// waits for the lead to take it in.
func askLead(t *testing.T, a *App, events <-chan event.Event) string {
	t.Helper()
	mb, err := mailbox.Open("files", a.cfg.ConfigDir, "core")
	if err != nil {
		t.Fatal(err)
	}
	defer mb.Close()
	req, err := mailbox.NewPlanApprovalRequest("core", "alice", "lead", mailbox.PlanApprovalRequest{PlanContent: "# plan\n", PlanPath: "/p.md"})
	if err != nil {
		t.Fatal(err)
	}
	if err := mb.Send(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	id, _ := req.PlanApprovalRequest()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case e := <-events:
			if s, ok := e.(event.TeammateState); ok && s.State == event.TeammateAwaitingApproval {
				return id.RequestID
			}
		case <-timeout:
			t.Fatal("the lead never took the request in")
		}
	}
}

// A lead in plan mode may send a teammate's plan back but not approve it:
// an approval would let files change before the lead's own plan is.
func TestLeadInPlanModeCannotApprove(t *testing.T) {
	a, _ := newTestApp(t, Options{Team: &TeamOptions{Team: "core"}, Mode: "plan"})
	events, stop := a.Subscribe(64)
	defer stop()
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	id := askLead(t, a, events)
	tt := teamTools{a}
	_, err := tt.SendMessage(context.Background(), teamtool.Outgoing{To: "alice", Response: &teamtool.Response{RequestID: id, Approve: true}})
	if err == nil || !strings.Contains(err.Error(), "plan mode") {
		t.Fatalf("approval in plan mode: %v", err)
	}
	if _, err := tt.SendMessage(context.Background(), teamtool.Outgoing{To: "alice", Response: &teamtool.Response{RequestID: id, Feedback: "more"}}); err != nil {
		t.Fatalf("rejection in plan mode: %v", err)
	}
}

// The first answer wins: a front end answers, and the model's later
// answer to the same request is refused and says who answered.
func TestFrontEndAnswerWinsOverModel(t *testing.T) {
	a, _ := newTestApp(t, Options{Team: &TeamOptions{Team: "core"}, Interactive: true})
	events, stop := a.Subscribe(64)
	defer stop()
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	id := askLead(t, a, events)
	var q event.Question
	for q.ID == "" {
		if e, ok := (<-events).(event.QuestionAsked); ok {
			q = e.Question
		}
	}
	if q.AgentID != "teammate:alice" || q.Plan != "# plan\n" || q.TeamRequestID != id {
		t.Fatalf("the front end was asked %+v", q)
	}
	if !a.Answer(q.ID, event.Answer{Option: event.OptionReject, Feedback: "smaller steps"}) {
		t.Fatal("the answer was not taken")
	}
	for {
		if m, ok := (<-events).(event.TeamMessage); ok && m.Sent {
			if m.Approved == nil || *m.Approved || m.Text != "smaller steps" {
				t.Fatalf("sent %+v", m)
			}
			break
		}
	}
	_, err := teamTools{a}.SendMessage(context.Background(), teamtool.Outgoing{To: "alice", Response: &teamtool.Response{RequestID: id, Approve: true}})
	if err == nil || !strings.Contains(err.Error(), "answered already (rejected by user)") {
		t.Fatalf("the model answered a request the user had answered: %v", err)
	}
}

// A lead in plan mode cannot start a teammate: a teammate can change
// files, and plan mode launches only agents that cannot.
func TestLeadInPlanModeCannotSpawn(t *testing.T) {
	var mu sync.Mutex
	refused := false
	sink := func(e event.Event) {
		if r, ok := e.(event.ToolRefused); ok && r.Tool == "SpawnTeammate" {
			mu.Lock()
			refused = true
			mu.Unlock()
		}
	}
	a, _ := newTestApp(t, Options{Team: &TeamOptions{Team: "core"}, Mode: "plan", Sink: sink},
		fakemodel.Reply{Name: "spawn", When: fakemodel.Match{LastUser: "go"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "SpawnTeammate", Input: map[string]any{"name": "alice", "prompt": "write files"}}}},
		fakemodel.Reply{Name: "done", Text: "ok"})
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Send(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !refused || len(a.Teammates()) != 0 {
		t.Errorf("SpawnTeammate in plan mode: refused %v, teammates %v", refused, a.Teammates())
	}
}

// A lead started again offers the requests it had not answered: to its
// model at the next turn, and to its front ends.
func TestLeadStartedAgainOffersOpenRequests(t *testing.T) {
	a, _ := newTestApp(t, Options{Team: &TeamOptions{Team: "core"}})
	events, stop := a.Subscribe(64)
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	id := askLead(t, a, events)
	stop()
	cfg, dir := a.cfg.ConfigDir, a.dir
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}

	asked := make(chan event.Question, 4)
	b, err := New(Options{Dir: dir, ConfigDir: cfg, Getenv: func(string) string { return "" }, Interactive: true,
		LLM: fakemodel.NewProvider(fakemodel.Script{}), Team: &TeamOptions{Team: "core"},
		Sink: func(e event.Event) {
			if q, ok := e.(event.QuestionAsked); ok {
				select {
				case asked <- q.Question:
				default:
				}
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if !b.HasTeamMessages() {
		t.Error("the open request does not wait for the model")
	}
	if msgs := b.lead.take(); len(msgs) != 1 || !strings.Contains(msgs[0], id) {
		t.Errorf("waiting for the model: %q", msgs)
	}
	select {
	case q := <-asked:
		if q.AgentID != "teammate:alice" {
			t.Errorf("asked %+v", q)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the front ends were not asked again")
	}
}
