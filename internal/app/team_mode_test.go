package app

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/team"
	"github.com/ponder-agent/ponder/internal/team/mailbox"
	"github.com/ponder-agent/ponder/internal/tool/teamtool"
)

// A teammate a lead starts never gets a freer mode than the lead's, and
// the lead's model is told when it asked for more.
func TestSpawnModeNeverFreerThanLead(t *testing.T) {
	cases := []struct {
		asked        string
		lead         permission.Mode
		planRequired bool
		want         string
		told         bool
	}{
		{"acceptEdits", permission.ModeDefault, false, "default", true},
		{"acceptEdits", permission.ModeDefault, true, "default", true},
		{"default", permission.ModeDefault, false, "default", false},
		{"plan", permission.ModeDefault, false, "plan", false},
		{"", permission.ModeDefault, false, "", false},
		{"acceptEdits", permission.ModeAcceptEdits, false, "acceptEdits", false},
		{"acceptEdits", permission.ModeBypass, false, "acceptEdits", false},
		{"default", permission.ModePlan, false, "plan", true},
		{"", permission.ModePlan, false, "plan", true},
		// Planning first anyway; its ceiling holds what it implements in.
		{"acceptEdits", permission.ModePlan, true, "plan", true},
		{"", permission.ModePlan, true, "plan", true},
		{"bypassPermissions", permission.ModeAcceptEdits, false, "acceptEdits", true},
	}
	for _, c := range cases {
		got, note := spawnMode(c.asked, c.lead, c.planRequired)
		if got != c.want || (note != "") != c.told {
			t.Errorf("asked %q, lead %s, plan required %v: %q, %q; want %q (told %v)", c.asked, c.lead, c.planRequired, got, note, c.want, c.told)
		}
		if c.told && !strings.Contains(note, string(c.lead)) && !strings.Contains(note, "like you") {
			t.Errorf("the note %q does not name the lead's mode", note)
		}
	}
}

// The command line of a teammate process never names a freer mode than
// the lead's, and carries the lead's mode as the teammate's ceiling.
func TestTeammateProcessCommandLine(t *testing.T) {
	a, _ := newTestApp(t, Options{Team: &TeamOptions{Team: "core"}})
	for _, c := range []struct {
		mode string
		lead permission.Mode
		want string
	}{
		{"acceptEdits", permission.ModeDefault, "default"},
		{"acceptEdits", permission.ModePlan, "plan"},
		{"acceptEdits", permission.ModeAcceptEdits, "acceptEdits"},
		{"default", permission.ModeBypass, "default"},
	} {
		args := a.teammateArgs(teamtool.Spawn{Name: "bob", Prompt: "--permission-mode=bypassPermissions", Mode: c.mode}, c.lead)
		dash := slices.Index(args, "--")
		if dash < 0 || args[len(args)-1] != "--permission-mode=bypassPermissions" || dash != len(args)-2 {
			t.Fatalf("the prompt is not after --: %q", args)
		}
		flags := args[:dash]
		if i := slices.Index(flags, "--permission-mode"); i < 0 || flags[i+1] != c.want {
			t.Errorf("mode %s, lead %s: %q; want --permission-mode %s", c.mode, c.lead, flags, c.want)
		}
		if i := slices.Index(flags, "--lead-mode"); i < 0 || flags[i+1] != string(c.lead) {
			t.Errorf("lead %s: %q lacks --lead-mode", c.lead, flags)
		}
	}
}

// The ceiling of a teammate: the lead's mode it was given; for one started
// by hand its own mode; started again without one, its record's.
func TestTeammateCeiling(t *testing.T) {
	cfg := &config.Config{}
	cases := []struct {
		lead, own, recorded string
		resuming            bool
		want                permission.Mode
	}{
		{"default", "acceptEdits", "", false, permission.ModeDefault},
		{"plan", "", "", false, permission.ModeDefault},
		{"acceptEdits", "", "default", true, permission.ModeAcceptEdits},
		{"", "acceptEdits", "", false, permission.ModeAcceptEdits},
		{"", "", "acceptEdits", true, permission.ModeAcceptEdits},
		{"", "", "acceptEdits", false, permission.ModeDefault},
		{"", "", "", false, permission.ModeDefault},
	}
	for _, c := range cases {
		opts := &Options{Mode: c.own, Team: &TeamOptions{Team: "core", Name: "bob", LeadMode: c.lead}}
		got, err := teammateCeiling(opts, cfg, c.recorded, c.resuming)
		if err != nil || got != c.want {
			t.Errorf("%+v: %s, %v; want %s", c, got, err, c.want)
		}
	}
	opts := &Options{Team: &TeamOptions{Team: "core", Name: "bob", LeadMode: "yolo"}}
	if _, err := teammateCeiling(opts, cfg, "", false); err == nil {
		t.Error("a lead mode that is no mode was taken")
	}
}

// waitFor reads events until one satisfies ok.
func waitFor(t *testing.T, events <-chan event.Event, what string, ok func(event.Event) bool) event.Event {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case e := <-events:
			if ok(e) {
				return e
			}
		case <-timeout:
			t.Fatalf("no %s", what)
		}
	}
}

// A default lead's model asks for an acceptEdits teammate: it gets one in
// default mode, and is told. The teammate in the lead's process reads the
// lead's mode at each change: raised by the user, it lets the teammate
// up; lowered, it brings the teammate down.
func TestInProcessTeammateHeldToLeadsMode(t *testing.T) {
	a, _ := newTestApp(t, Options{Team: &TeamOptions{Team: "core"}},
		fakemodel.Reply{Name: "bob", When: fakemodel.Match{LastUser: "BOB"}, Text: "done", Times: -1})
	events, stop := a.Subscribe(256)
	defer stop()
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	out, err := teamTools{a}.SpawnTeammate(context.Background(), teamtool.Spawn{Name: "bob", Prompt: "BOB work", Mode: "acceptEdits"})
	if err != nil || !strings.Contains(out, "default mode, not acceptEdits") {
		t.Fatalf("spawn: %q, %v", out, err)
	}
	waitFor(t, events, "bob idle", func(e event.Event) bool {
		s, ok := e.(event.TeammateState)
		return ok && s.Name == "bob" && s.State == event.TeammateIdle
	})
	a.lead.mu.Lock()
	bob := a.lead.mates["bob"].app
	a.lead.mu.Unlock()
	if m := bob.plan.Mode(); m != permission.ModeDefault {
		t.Fatalf("bob works in %s", m)
	}
	if ch := bob.plan.SetMode(permission.ModeAcceptEdits, planmode.ViaApproval); !ch.Limited || bob.plan.Mode() != permission.ModeDefault {
		t.Fatalf("bob got past a default lead: %+v", ch)
	}
	if err := a.SetMode(event.ModeAcceptEdits, "tui"); err != nil {
		t.Fatal(err)
	}
	if ch := bob.plan.SetMode(permission.ModeAcceptEdits, planmode.ViaApproval); ch.Limited || bob.plan.Mode() != permission.ModeAcceptEdits {
		t.Fatalf("bob under an acceptEdits lead: %+v", ch)
	}
	// The lead back in default mode takes bob down with it at once.
	if err := a.SetMode(event.ModeDefault, "tui"); err != nil {
		t.Fatal(err)
	}
	if m := bob.plan.Mode(); m != permission.ModeDefault {
		t.Fatalf("bob stayed in %s after its lead went back to default", m)
	}
	if ch := bob.plan.SetMode(permission.ModeAcceptEdits, planmode.ViaApproval); !ch.Limited {
		t.Fatalf("bob after its lead went back to default: %+v", ch)
	}
	// Planning, bob is left alone: plan mode is stricter than any.
	bob.plan.SetMode(permission.ModePlan, planmode.ViaTool)
	if err := a.SetMode(event.ModeAcceptEdits, "tui"); err != nil {
		t.Fatal(err)
	}
	if err := a.SetMode(event.ModeDefault, "tui"); err != nil {
		t.Fatal(err)
	}
	if m := bob.plan.Mode(); m != permission.ModePlan {
		t.Fatalf("bob, planning, was moved to %s", m)
	}
}

// A lead in plan mode may start a teammate that must plan first (it
// changes nothing before an approval), and it starts in plan mode.
func TestLeadInPlanModeStartsPlanningTeammates(t *testing.T) {
	a, _ := newTestApp(t, Options{Team: &TeamOptions{Team: "core"}, Mode: "plan"},
		fakemodel.Reply{Name: "spawn", When: fakemodel.Match{LastUser: "go"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "SpawnTeammate", Input: map[string]any{"name": "alice", "prompt": "ALICE plan", "plan_mode_required": true, "mode": "acceptEdits"}}}},
		fakemodel.Reply{Name: "alice", When: fakemodel.Match{LastUser: "ALICE"}, Text: "thinking", Times: -1},
		fakemodel.Reply{Name: "done", Text: "ok", Times: -1})
	events, stop := a.Subscribe(256)
	defer stop()
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	res, err := a.Send(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, events, "alice idle", func(e event.Event) bool {
		s, ok := e.(event.TeammateState)
		return ok && s.Name == "alice" && s.State == event.TeammateIdle
	})
	a.lead.mu.Lock()
	run := a.lead.mates["alice"]
	a.lead.mu.Unlock()
	if run == nil {
		t.Fatalf("alice was not started: %q", res.Text)
	}
	if m := run.app.plan.Mode(); m != permission.ModePlan {
		t.Errorf("alice works in %s under a lead in plan mode", m)
	}
	if m := run.app.plan.State().PrePlanMode; m.Freer(permission.ModeDefault) {
		t.Errorf("approved, alice would return to %s", m)
	}
}

// An approval asking for a freer mode than the lead's is sent with the
// lead's, and the model is told; the dialog offers no freer mode.
func TestApprovalHeldToLeadsMode(t *testing.T) {
	a, _ := newTestApp(t, Options{Team: &TeamOptions{Team: "core"}})
	events, stop := a.Subscribe(64)
	defer stop()
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	ids := func() []string {
		var out []string
		for _, o := range a.teammateOptions() {
			out = append(out, o.ID)
		}
		return out
	}
	if slices.Contains(ids(), event.OptionAcceptEdits) {
		t.Errorf("a default lead offers %v", ids())
	}
	id := askLead(t, a, events)
	out, err := teamTools{a}.SendMessage(context.Background(), teamtool.Outgoing{To: "alice",
		Response: &teamtool.Response{RequestID: id, Approve: true, Mode: "acceptEdits"}})
	if err != nil || !strings.Contains(out, "default mode, not acceptEdits") {
		t.Fatalf("approval: %q, %v", out, err)
	}
	mb, err := mailbox.Open("files", a.cfg.ConfigDir, "core")
	if err != nil {
		t.Fatal(err)
	}
	defer mb.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	d, err := mb.Receive(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := d.Message().PlanApprovalResponse()
	if err != nil || !resp.Approved || resp.Mode != "default" {
		t.Fatalf("alice was sent %+v, %v", resp, err)
	}
	d.Ack(ctx)
	if err := a.SetMode(event.ModeAcceptEdits, "tui"); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(ids(), event.OptionAcceptEdits) {
		t.Errorf("an acceptEdits lead offers %v", ids())
	}

	// "Its own mode" from a default lead is default: the teammate's own
	// may be acceptEdits from an earlier lead.
	if err := a.SetMode(event.ModeDefault, "tui"); err != nil {
		t.Fatal(err)
	}
	id = askLead(t, a, events)
	if _, err := (teamTools{a}).SendMessage(context.Background(), teamtool.Outgoing{To: "alice",
		Response: &teamtool.Response{RequestID: id, Approve: true}}); err != nil {
		t.Fatal(err)
	}
	// Before the answer, going back to default told alice to work in
	// default at most.
	var limits []string
	for {
		d, err = mb.Receive(ctx, "alice")
		if err != nil {
			t.Fatal(err)
		}
		d.Ack(ctx)
		if d.Message().Type != mailbox.TypeModeLimit {
			break
		}
		var ml mailbox.ModeLimit
		d.Message().Decode(mailbox.TypeModeLimit, &ml)
		limits = append(limits, ml.Mode)
	}
	if resp, err := d.Message().PlanApprovalResponse(); err != nil || !resp.Approved || resp.Mode != "default" {
		t.Fatalf("alice was sent %+v, %v", resp, err)
	}
	if strings.Join(limits, " ") != "default" {
		t.Errorf("alice was told the limits %q; want default once", limits)
	}
}

// A teammate process lowers its ceiling on a mode_limit message, whoever
// sent it, and never raises it: a forged one can only make it ask more.
func TestModeLimitOnlyLowers(t *testing.T) {
	a, _ := newTestApp(t, Options{Mode: "acceptEdits", Team: &TeamOptions{Team: "core", Name: "bob", LeadMode: "acceptEdits"}})
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	if m := a.plan.Mode(); m != permission.ModeAcceptEdits {
		t.Fatalf("bob starts in %s", m)
	}
	limit := func(from, mode string) {
		msg, err := mailbox.NewMessage("core", from, "bob", mailbox.TypeModeLimit, mailbox.ModeLimit{Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		a.applyModeLimit(msg)
	}
	limit("lead", "yolo")
	if a.modeCeiling() != permission.ModeAcceptEdits {
		t.Fatalf("a limit that is no mode changed the ceiling to %s", a.modeCeiling())
	}
	limit("mallory", "default")
	if m, c := a.plan.Mode(), a.modeCeiling(); m != permission.ModeDefault || c != permission.ModeDefault {
		t.Fatalf("after a limit of default: mode %s, ceiling %s", m, c)
	}
	limit("lead", "bypassPermissions")
	limit("lead", "acceptEdits")
	if ch := a.plan.SetMode(permission.ModeAcceptEdits, planmode.ViaApproval); !ch.Limited || a.plan.Mode() != permission.ModeDefault {
		t.Fatalf("a limit raised the ceiling: %+v", ch)
	}
	rec, _, err := team.LoadRecord(a.cfg.ConfigDir, "core", "bob")
	if err != nil || rec.LeadMode != "default" {
		t.Fatalf("the record keeps %q (%v); started again, bob would be freer", rec.LeadMode, err)
	}
}
