package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/team"
	"github.com/ponder-agent/ponder/internal/tool/teamtool"
)

// A lead's front end follows a teammate in its process live, reads its
// conversation from its transcript as well, and sends it the user's
// messages, which its model reads as the lead's.
func TestTeammateView(t *testing.T) {
	a, prov := newTestApp(t, Options{Team: &TeamOptions{Team: "core"}},
		fakemodel.Reply{Name: "bob", When: fakemodel.Match{FirstUser: "BOB", LastUser: "BOB"}, Text: "hello from bob"},
		fakemodel.Reply{Name: "bob pong", When: fakemodel.Match{FirstUser: "BOB", LastUser: "PING"}, Text: "pong"})
	events, stop := a.Subscribe(256)
	defer stop()
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ViewTeammate("bob"); err == nil {
		t.Error("a view of a teammate nobody started opened")
	}
	if _, err := (teamTools{a}).SpawnTeammate(context.Background(), teamtool.Spawn{Name: "bob", Prompt: "BOB work"}); err != nil {
		t.Fatal(err)
	}
	idle := func(e event.Event) bool {
		s, ok := e.(event.TeammateState)
		return ok && s.Name == "bob" && s.State == event.TeammateIdle
	}
	waitFor(t, events, "bob idle", idle)
	v, err := a.ViewTeammate("bob")
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if !v.Live() || v.Mode != event.ModeDefault || len(v.History) < 2 || !strings.Contains(v.History[len(v.History)-1].Content[0].Text, "hello from bob") {
		t.Fatalf("view %+v", v)
	}
	hist, mode, err := a.TeammateTranscript("bob")
	if err != nil || mode != event.ModeDefault || len(hist) != len(v.History) {
		t.Fatalf("transcript: %d messages, %s, %v; the live history has %d", len(hist), mode, err, len(v.History))
	}
	if err := a.MessageTeammate(context.Background(), "carol", "PING"); err == nil {
		t.Error("a message to nobody was sent")
	}
	if err := a.MessageTeammate(context.Background(), "bob", "PING"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, v.Events, "the message at bob", func(e event.Event) bool {
		m, ok := e.(event.TeamMessage)
		return ok && !m.Sent && m.From == "lead" && m.Text == "PING"
	})
	waitFor(t, v.Events, "bob's answer", func(e event.Event) bool {
		m, ok := e.(event.AssistantMessage)
		return ok && strings.Contains(m.Message.Content[0].Text, "pong")
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := prov.WaitFor(ctx, func(rs []fakemodel.Request) bool {
		for _, r := range rs {
			if strings.Contains(r.LastUser().Text, `<teammate-message from="lead" type="text">`) && strings.Contains(r.LastUser().Text, "PING") {
				return true
			}
		}
		return false
	}); err != nil {
		t.Fatal("bob's model never read the message as the lead's")
	}
	// Closed, the view's channel ends.
	v.Close()
	for range v.Events {
	}
}

// A teammate's record names the session the view reads; a record naming
// anything but a session id reads no file.
func TestTeammateTranscriptNeedsASessionID(t *testing.T) {
	a, _ := newTestApp(t, Options{Team: &TeamOptions{Team: "core"}})
	events, stop := a.Subscribe(64)
	defer stop()
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	askLead(t, a, events)
	rec := team.Record{Team: "core", Name: "alice", Lead: team.LeadName, SessionID: "../../../settings", State: event.TeammateAwaitingApproval}
	if err := rec.Save(a.cfg.ConfigDir); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.TeammateTranscript("alice"); err == nil || !strings.Contains(err.Error(), "names no session") {
		t.Fatalf("a record naming %q: %v", rec.SessionID, err)
	}
	if _, err := a.ViewTeammate("alice"); err == nil {
		t.Fatal("a view opened on a record naming no session")
	}
}
