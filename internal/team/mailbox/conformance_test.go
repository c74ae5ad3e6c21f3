package mailbox

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The conformance suite: every promise of the Mailbox interface, checked
// against both implementations the same way.

type conformanceCase struct {
	name string
	run  func(t *testing.T, b backend)
}

var conformance = []conformanceCase{
	{"Order", testOrder},
	{"AckIsFinal", testAckIsFinal},
	{"NakRedeliversFirst", testNakRedeliversFirst},
	{"CrashRedelivers", testCrashRedelivers},
	{"CloseGivesBack", testCloseGivesBack},
	{"ExactlyOnceWithSeen", testExactlyOnceWithSeen},
	{"RetriedSendStoredOnce", testRetriedSendStoredOnce},
	{"ConcurrentSenders", testConcurrentSenders},
	{"TwoReceiversNeverShare", testTwoReceivers},
	{"OneDeliveryAtATime", testOneDeliveryAtATime},
	{"ReceiveWakesOnSend", testReceiveWakesOnSend},
	{"ReceiveCancel", testReceiveCancel},
	{"HostileNames", testHostileNames},
	{"PlanApprovalRoundTrip", testPlanApprovalRoundTrip},
	{"BadMessageSetAside", testBadMessageSetAside},
	{"PendingCountsLeased", testPendingCountsLeased},
	{"UseAfterClose", testUseAfterClose},
}

func TestConformanceFiles(t *testing.T) {
	t.Parallel()
	for _, c := range conformance {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, fileBackend(t))
		})
	}
}

func TestConformanceNATS(t *testing.T) {
	t.Parallel()
	url := startNATS(t, t.TempDir(), 0).ClientURL()
	for _, c := range conformance {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, natsBackend(t, url))
		})
	}
}

func testOrder(t *testing.T, b backend) {
	mb := b.open(t)
	for i := range 10 {
		send(t, mb, textMsg(t, b.team, "lead", "worker", fmt.Sprint(i)))
	}
	if n := pending(t, mb, "worker"); n != 10 {
		t.Fatalf("pending = %d, want 10", n)
	}
	for i := range 10 {
		d := receive(t, mb, "worker")
		if got := textOf(t, d.Message()); got != fmt.Sprint(i) {
			t.Fatalf("message %d: got %q", i, got)
		}
		ack(t, d)
	}
	if n := pending(t, mb, "worker"); n != 0 {
		t.Fatalf("pending after acking all = %d", n)
	}
	if n := pending(t, mb, "lead"); n != 0 {
		t.Fatalf("another inbox has %d messages", n)
	}
}

func testAckIsFinal(t *testing.T, b backend) {
	mb := b.open(t)
	m1, m2 := textMsg(t, b.team, "lead", "worker", "1"), textMsg(t, b.team, "lead", "worker", "2")
	send(t, mb, m1, m2)
	d := receive(t, mb, "worker")
	ack(t, d)
	if err := d.Ack(testCtx(t)); !errors.Is(err, ErrSettled) {
		t.Fatalf("second Ack: %v, want ErrSettled", err)
	}
	if err := d.Nak(testCtx(t)); !errors.Is(err, ErrSettled) {
		t.Fatalf("Nak after Ack: %v, want ErrSettled", err)
	}
	// Another handle, as another process would see it.
	other := b.open(t)
	d2 := receive(t, other, "worker")
	if d2.Message().ID != m2.ID {
		t.Fatalf("after acking %s got %s, want %s", m1.ID, d2.Message().ID, m2.ID)
	}
	ack(t, d2)
	if n := pending(t, other, "worker"); n != 0 {
		t.Fatalf("pending = %d", n)
	}
}

func testNakRedeliversFirst(t *testing.T, b backend) {
	mb := b.open(t)
	m1, m2 := textMsg(t, b.team, "lead", "worker", "1"), textMsg(t, b.team, "lead", "worker", "2")
	send(t, mb, m1, m2)
	d := receive(t, mb, "worker")
	if err := d.Nak(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	again := receive(t, mb, "worker")
	if again.Message().ID != m1.ID {
		t.Fatalf("after Nak got %s, want %s again", again.Message().ID, m1.ID)
	}
	if again.Message().CreatedAt.IsZero() || textOf(t, again.Message()) != "1" {
		t.Fatalf("redelivered message lost its content: %+v", again.Message())
	}
	ack(t, again)
	if d := receive(t, mb, "worker"); d.Message().ID != m2.ID {
		t.Fatalf("got %s, want %s", d.Message().ID, m2.ID)
	}
}

func testCrashRedelivers(t *testing.T, b backend) {
	sender := b.open(t)
	m1, m2 := textMsg(t, b.team, "lead", "worker", "1"), textMsg(t, b.team, "lead", "worker", "2")
	send(t, sender, m1, m2)
	dying := b.open(t)
	if d := receive(t, dying, "worker"); d.Message().ID != m1.ID {
		t.Fatalf("got %s", d.Message().ID)
	}
	b.crash(t, dying)
	restarted := b.open(t)
	d := receive(t, restarted, "worker")
	if d.Message().ID != m1.ID {
		t.Fatalf("after the crash got %s, want %s again (send order)", d.Message().ID, m1.ID)
	}
	ack(t, d)
	if d := receive(t, restarted, "worker"); d.Message().ID != m2.ID {
		t.Fatalf("got %s, want %s", d.Message().ID, m2.ID)
	}
}

func testCloseGivesBack(t *testing.T, b backend) {
	mb := b.open(t)
	m1 := textMsg(t, b.team, "lead", "worker", "1")
	send(t, mb, m1)
	d := receive(t, mb, "worker")
	if err := mb.Close(); err != nil {
		t.Fatal(err)
	}
	if err := d.Ack(testCtx(t)); !errors.Is(err, ErrClosed) {
		t.Fatalf("Ack after Close: %v, want ErrClosed", err)
	}
	other := b.open(t)
	if d := receive(t, other, "worker"); d.Message().ID != m1.ID {
		t.Fatalf("got %s", d.Message().ID)
	}
}

func testExactlyOnceWithSeen(t *testing.T, b backend) {
	cfg := t.TempDir() // the receiver's own config directory
	seen, err := OpenSeen(cfg, b.team, "worker")
	if err != nil {
		t.Fatal(err)
	}
	defer seen.Close()
	applied := map[string]int{}
	apply := func(_ context.Context, m Message) error { applied[m.ID]++; return nil }

	sender := b.open(t)
	m1, m2, m3 := textMsg(t, b.team, "lead", "worker", "1"), textMsg(t, b.team, "lead", "worker", "2"), textMsg(t, b.team, "lead", "worker", "3")
	send(t, sender, m1, m2, m3)

	// A receiver applies m1, records it, and dies before acknowledging.
	dying := b.open(t)
	d := receive(t, dying, "worker")
	if err := apply(context.Background(), d.Message()); err != nil {
		t.Fatal(err)
	}
	if err := seen.Add(d.Message().ID); err != nil {
		t.Fatal(err)
	}
	b.crash(t, dying)

	// Its successor is handed m1 again, skips it, and goes on.
	next := b.open(t)
	got, err := Handle(testCtx(t), next, seen, "worker", apply)
	if err != nil || got.ID != m2.ID {
		t.Fatalf("Handle = %s, %v; want %s", got.ID, err, m2.ID)
	}
	// An apply that fails gives the message back: it is applied later.
	boom := errors.New("boom")
	if _, err := Handle(testCtx(t), next, seen, "worker", func(context.Context, Message) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("failing apply: %v", err)
	}
	if got, err := Handle(testCtx(t), next, seen, "worker", apply); err != nil || got.ID != m3.ID {
		t.Fatalf("Handle = %s, %v; want %s", got.ID, err, m3.ID)
	}
	for _, m := range []Message{m1, m2, m3} {
		if applied[m.ID] != 1 {
			t.Errorf("%s applied %d times", textOf(t, m), applied[m.ID])
		}
	}
	if n := pending(t, next, "worker"); n != 0 {
		t.Fatalf("pending = %d", n)
	}
	// The record outlives the process: a new one still knows m1.
	again, err := OpenSeen(cfg, b.team, "worker")
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if ok, err := again.Has(m1.ID); err != nil || !ok {
		t.Fatalf("reopened record lost %s: %v %v", m1.ID, ok, err)
	}
}

func testRetriedSendStoredOnce(t *testing.T, b backend) {
	mb := b.open(t)
	m := textMsg(t, b.team, "lead", "worker", "once")
	for range 3 {
		send(t, mb, m)
	}
	send(t, b.open(t), m) // from another process too
	if n := pending(t, mb, "worker"); n != 1 {
		t.Fatalf("pending after 4 sends of one message = %d, want 1", n)
	}
	d := receive(t, mb, "worker")
	// Sent again while it is being processed, and after it is
	// acknowledged: still nothing new.
	send(t, mb, m)
	ack(t, d)
	send(t, mb, m)
	if n := pending(t, mb, "worker"); n != 0 {
		t.Fatalf("a retry after the ack was stored again: pending = %d", n)
	}
	// The same ID for another member is another message.
	copyTo := m
	copyTo.To = "reviewer"
	send(t, mb, copyTo)
	if n := pending(t, mb, "reviewer"); n != 1 {
		t.Fatalf("a message with the ID of one in another inbox was dropped: pending = %d", n)
	}
}

func testConcurrentSenders(t *testing.T, b backend) {
	const senders, each = 4, 15
	var wg sync.WaitGroup
	errs := make(chan error, senders)
	for s := range senders {
		mb := b.open(t)
		wg.Go(func() {
			for i := range each {
				if err := mb.Send(context.Background(), textMsg(t, b.team, fmt.Sprintf("s%d", s), "lead", fmt.Sprintf("%d/%d", s, i))); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	rcv := b.open(t)
	if n := pending(t, rcv, "lead"); n != senders*each {
		t.Fatalf("pending = %d, want %d", n, senders*each)
	}
	next := make([]int, senders)
	for range senders * each {
		d := receive(t, rcv, "lead")
		var s, i int
		if _, err := fmt.Sscanf(textOf(t, d.Message()), "%d/%d", &s, &i); err != nil {
			t.Fatal(err)
		}
		if i != next[s] {
			t.Fatalf("sender %d: got message %d, want %d (each sender's order must hold)", s, i, next[s])
		}
		next[s]++
		ack(t, d)
	}
}

func testTwoReceivers(t *testing.T, b backend) {
	const total = 24
	sender := b.open(t)
	want := map[string]bool{}
	for i := range total {
		m := textMsg(t, b.team, "lead", "worker", fmt.Sprint(i))
		want[m.ID] = true
		send(t, sender, m)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var (
		mu          sync.Mutex
		got         []string
		outstanding atomic.Int32
		overlap     atomic.Bool
		wg          sync.WaitGroup
	)
	for r := range 2 {
		mb := b.open(t)
		wg.Go(func() {
			for {
				d, err := mb.Receive(ctx, "worker")
				if err != nil {
					return // ctx ended: everything was received
				}
				// From here to the Ack this receiver holds the lease.
				if outstanding.Add(1) > 1 {
					overlap.Store(true)
				}
				mu.Lock()
				got = append(got, fmt.Sprintf("%s@%d", d.Message().ID, r))
				done := len(got) == total
				mu.Unlock()
				outstanding.Add(-1)
				if err := d.Ack(context.Background()); err != nil {
					t.Error(err)
					return
				}
				if done {
					cancel()
				}
			}
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, g := range got {
		id := strings.Split(g, "@")[0]
		if seen[id] {
			t.Fatalf("message %s delivered twice: %v", id, got)
		}
		seen[id] = true
	}
	if len(seen) != total {
		t.Fatalf("received %d of %d messages", len(seen), total)
	}
	if overlap.Load() {
		t.Fatal("two deliveries of one inbox were outstanding at once")
	}
}

// testOneDeliveryAtATime: while one receiver holds the oldest message,
// another gets nothing, not even the next one; that is what keeps an
// inbox in order when the holder gives its message back or dies.
func testOneDeliveryAtATime(t *testing.T, b backend) {
	holder, other := b.open(t), b.open(t)
	m1, m2 := textMsg(t, b.team, "lead", "worker", "1"), textMsg(t, b.team, "lead", "worker", "2")
	send(t, holder, m1, m2)
	d := receive(t, holder, "worker")
	ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
	defer cancel()
	if got, err := other.Receive(ctx, "worker"); !errors.Is(err, context.DeadlineExceeded) {
		if got != nil {
			t.Fatalf("a second receiver got %s while %s was held", got.Message().ID, m1.ID)
		}
		t.Fatal(err)
	}
	if err := d.Nak(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if got := receive(t, other, "worker"); got.Message().ID != m1.ID {
		t.Fatalf("after the holder gave it back, got %s, want %s", got.Message().ID, m1.ID)
	}
}

func testReceiveWakesOnSend(t *testing.T, b backend) {
	rcv, snd := b.open(t), b.open(t)
	m := textMsg(t, b.team, "worker", "lead", "wake")
	type result struct {
		d   Delivery
		err error
		at  time.Time
	}
	res := make(chan result, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	go func() {
		d, err := rcv.Receive(ctx, "lead")
		res <- result{d, err, time.Now()}
	}()
	sent := time.Now()
	send(t, snd, m)
	r := <-res
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.d.Message().ID != m.ID {
		t.Fatalf("got %s", r.d.Message().ID)
	}
	t.Logf("%s: delivered %v after Send began", b.name, r.at.Sub(sent))
}

func testReceiveCancel(t *testing.T, b backend) {
	mb := b.open(t)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := mb.Receive(ctx, "worker")
		errc <- err
	}()
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Receive after cancel: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Receive did not return after its context was cancelled")
	}
	expired, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	if _, err := mb.Receive(expired, "worker"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Receive with an expired context: %v", err)
	}
	// The abandoned receives swallowed nothing.
	m := textMsg(t, b.team, "lead", "worker", "after")
	send(t, mb, m)
	if d := receive(t, mb, "worker"); d.Message().ID != m.ID {
		t.Fatalf("got %s", d.Message().ID)
	}
}

// hostileNames would, if accepted, reach outside the team's directory,
// address several inboxes at once in NATS, or alias another name.
var hostileNames = []string{
	"", ".", "..", "../x", "../../etc", "a/b", "/abs", "a\\b", "a\x00b", "x.>", "*", ">", "a.b",
	"Lead", "LEAD", " lead", "lead ", "-lead", "_lead", "lé", "lead\n", strings.Repeat("a", 65),
	"%2e%2e", "inboxes/../../x",
}

func testHostileNames(t *testing.T, b backend) {
	mb := b.open(t)
	valid := textMsg(t, b.team, "lead", "worker", "x")
	for _, name := range hostileNames {
		to := valid
		to.To = name
		from := valid
		from.From = name
		team := valid
		team.Team = name
		for what, m := range map[string]Message{"to": to, "from": from, "team": team} {
			if err := mb.Send(testCtx(t), m); err == nil {
				t.Errorf("Send with %s %q was accepted", what, name)
			}
		}
		if _, err := mb.Receive(testCtx(t), name); err == nil {
			t.Errorf("Receive(%q) was accepted", name)
		}
		if _, err := mb.Pending(testCtx(t), name); err == nil {
			t.Errorf("Pending(%q) was accepted", name)
		}
		if _, err := NewMessage(b.team, "lead", name, TypeText, nil); err == nil {
			t.Errorf("NewMessage to %q was accepted", name)
		}
		if _, err := OpenFiles(t.TempDir(), name, FileOptions{}); err == nil {
			t.Errorf("OpenFiles(team %q) was accepted", name)
		}
		if _, err := OpenSeen(t.TempDir(), b.team, name); err == nil {
			t.Errorf("OpenSeen(%q) was accepted", name)
		}
	}
	for _, id := range []string{"", "../x", "a/b", "a.json", "a b", "a\x00", strings.Repeat("a", 129)} {
		m := valid
		m.ID = id
		if err := mb.Send(testCtx(t), m); err == nil {
			t.Errorf("Send with id %q was accepted", id)
		}
	}
	for _, typ := range []Type{"", "Text", "a/b", "a.b", "x>"} {
		m := valid
		m.Type = typ
		if err := mb.Send(testCtx(t), m); err == nil {
			t.Errorf("Send with type %q was accepted", typ)
		}
	}
	if n := b.stored(t); n != 0 {
		t.Fatalf("%d messages were stored from hostile input", n)
	}
}

func testPlanApprovalRoundTrip(t *testing.T, b backend) {
	mb := b.open(t)
	plan := "# Plan\n\n1. Add the limiter\n2. Test it \u2713\n"
	req, err := NewPlanApprovalRequest(b.team, "researcher", "team-lead", PlanApprovalRequest{PlanContent: plan, PlanPath: "/home/u/.ponder/plans/brave-otter.md"})
	if err != nil {
		t.Fatal(err)
	}
	send(t, mb, req)
	d := receive(t, b.open(t), "team-lead")
	got, err := d.Message().PlanApprovalRequest()
	if err != nil {
		t.Fatal(err)
	}
	if got.PlanContent != plan || got.From != "researcher" || !strings.HasPrefix(got.RequestID, "plan_approval-") || got.Timestamp.IsZero() {
		t.Fatalf("request arrived as %+v", got)
	}
	ack(t, d)
	resp, err := NewPlanApprovalResponse(b.team, "team-lead", "researcher", PlanApprovalResponse{RequestID: got.RequestID, Approved: false, Feedback: "use a token bucket", Mode: "acceptEdits", Model: "small"})
	if err != nil {
		t.Fatal(err)
	}
	send(t, mb, resp)
	d = receive(t, mb, "researcher")
	answer, err := d.Message().PlanApprovalResponse()
	if err != nil {
		t.Fatal(err)
	}
	want := PlanApprovalResponse{RequestID: got.RequestID, Feedback: "use a token bucket", Mode: "acceptEdits", Model: "small"}
	if answer != want {
		t.Fatalf("response arrived as %+v", answer)
	}
	ack(t, d)
}

func testBadMessageSetAside(t *testing.T, b backend) {
	mb := b.open(t)
	good := textMsg(t, b.team, "lead", "worker", "good")
	misaddressed := textMsg(t, b.team, "lead", "other", "not yours")
	newer := textMsg(t, b.team, "lead", "worker", "from the future")
	newer.V = Version + 1
	b.inject(t, "worker", []byte("this is not json"))
	b.inject(t, "worker", mustJSON(t, misaddressed))
	b.inject(t, "worker", mustJSON(t, newer))
	send(t, mb, good)
	var bad []string
	for {
		d, err := mb.Receive(testCtx(t), "worker")
		var be *BadMessageError
		if errors.As(err, &be) {
			bad = append(bad, be.Error())
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if d.Message().ID != good.ID {
			t.Fatalf("got %s, want the good message", d.Message().ID)
		}
		ack(t, d)
		break
	}
	if len(bad) != 3 {
		t.Fatalf("bad messages reported: %q", bad)
	}
	sort.Strings(bad)
	joined := strings.Join(bad, "\n")
	for _, want := range []string{"not a message", "addressed to \"other\"", "version 2"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no error says %q:\n%s", want, joined)
		}
	}
	if n := pending(t, mb, "worker"); n != 0 {
		t.Fatalf("pending = %d: a bad message would be delivered again", n)
	}
	kept := b.rejected(t, "worker")
	sort.Strings(kept)
	if len(kept) != 3 || kept[0] != "this is not json" {
		t.Fatalf("the bad messages were not kept: %q", kept)
	}
}

func testPendingCountsLeased(t *testing.T, b backend) {
	mb := b.open(t)
	send(t, mb, textMsg(t, b.team, "lead", "worker", "1"), textMsg(t, b.team, "lead", "worker", "2"))
	d := receive(t, mb, "worker")
	if n := pending(t, mb, "worker"); n != 2 {
		t.Fatalf("pending with one leased = %d, want 2", n)
	}
	if err := d.Nak(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if n := pending(t, mb, "worker"); n != 2 {
		t.Fatalf("pending after Nak = %d, want 2", n)
	}
	ack(t, receive(t, mb, "worker"))
	if n := pending(t, mb, "worker"); n != 1 {
		t.Fatalf("pending after Ack = %d, want 1", n)
	}
}

func testUseAfterClose(t *testing.T, b backend) {
	mb := b.open(t)
	if err := mb.Close(); err != nil {
		t.Fatal(err)
	}
	if err := mb.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := mb.Send(testCtx(t), textMsg(t, b.team, "a", "b", "x")); !errors.Is(err, ErrClosed) {
		t.Errorf("Send: %v", err)
	}
	if _, err := mb.Receive(testCtx(t), "b"); !errors.Is(err, ErrClosed) {
		t.Errorf("Receive: %v", err)
	}
	if _, err := mb.Pending(testCtx(t), "b"); !errors.Is(err, ErrClosed) {
		t.Errorf("Pending: %v", err)
	}
}
