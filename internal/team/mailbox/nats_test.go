package mailbox

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"
)

// TestNATSConfiguration reads back from the server the stream and
// consumer the mailbox created: the delivery promise rests on them.
func TestNATSConfiguration(t *testing.T) {
	t.Parallel()
	url := startNATS(t, t.TempDir(), 0).ClientURL()
	team := newTeamName()
	mb := openNATSInternal(t, url, team)
	if _, err := mb.Pending(testCtx(t), "worker"); err != nil {
		t.Fatal(err)
	}
	st, err := mb.js.Stream(testCtx(t), "PONDER_TEAM_"+team)
	if err != nil {
		t.Fatal(err)
	}
	sc := st.CachedInfo().Config
	if sc.Retention != jetstream.WorkQueuePolicy || sc.Storage != jetstream.FileStorage ||
		sc.Duplicates != 10*time.Minute || len(sc.Subjects) != 2 || sc.Subjects[0] != "ponder.team."+team+".inbox.*" || sc.Subjects[1] != "ponder.team."+team+".rejected.*" ||
		sc.MaxMsgSize != MaxMessageBytes || sc.MaxAge != 0 {
		t.Fatalf("stream config: %+v", sc)
	}
	c, err := st.Consumer(testCtx(t), "inbox-worker")
	if err != nil {
		t.Fatal(err)
	}
	cc := c.CachedInfo().Config
	if cc.Durable != "inbox-worker" || cc.FilterSubject != "ponder.team."+team+".inbox.worker" ||
		cc.AckPolicy != jetstream.AckExplicitPolicy || cc.MaxAckPending != 1 || cc.MaxDeliver != -1 ||
		cc.AckWait != time.Second || cc.DeliverPolicy != jetstream.DeliverAllPolicy {
		t.Fatalf("consumer config: %+v", cc)
	}
}

// TestNATSMessageIDHeader checks that the server, not only this client,
// drops a retried send: the stored copy carries Nats-Msg-Id.
func TestNATSMessageIDHeader(t *testing.T) {
	t.Parallel()
	url := startNATS(t, t.TempDir(), 0).ClientURL()
	team := newTeamName()
	mb := openNATSInternal(t, url, team)
	m := textMsg(t, team, "lead", "worker", "x")
	send(t, mb, m, m, m)
	st, err := mb.js.Stream(testCtx(t), natsStreamName(team))
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != 1 {
		t.Fatalf("stream holds %d messages after three sends of one", info.State.Msgs)
	}
	raw, err := st.GetMsg(testCtx(t), info.State.FirstSeq)
	if err != nil {
		t.Fatal(err)
	}
	if got := raw.Header.Get("Nats-Msg-Id"); got != "worker/"+m.ID {
		t.Fatalf("Nats-Msg-Id = %q, want worker/%s", got, m.ID)
	}
}

// TestNATSLiveLeaseOutlastsAckWait: a receiver that is alive keeps its
// message however long it works; no one else gets it after AckWait.
func TestNATSLiveLeaseOutlastsAckWait(t *testing.T) {
	t.Parallel()
	url := startNATS(t, t.TempDir(), 0).ClientURL()
	team := newTeamName()
	opts := NATSOptions{AckWait: 400 * time.Millisecond}
	holder, err := OpenNATS(url, team, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	other, err := OpenNATS(url, team, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	m := textMsg(t, team, "lead", "worker", "slow work")
	send(t, holder, m)
	d := receive(t, holder, "worker")
	// Three times AckWait: without the keep-alive the server would have
	// redelivered it twice by now.
	ctx, cancel := context.WithTimeout(context.Background(), 1200*time.Millisecond)
	defer cancel()
	if got, err := other.Receive(ctx, "worker"); !errors.Is(err, context.DeadlineExceeded) {
		if got != nil {
			t.Fatalf("redelivered to another receiver while its holder was working: %s", got.Message().ID)
		}
		t.Fatal(err)
	}
	ack(t, d)
	if n := pending(t, other, "worker"); n != 0 {
		t.Fatalf("pending = %d", n)
	}
}

// TestNATSAbandonedReceiveGivesBack: a Receive whose context ends leaves
// its pull request on the server for a while; a message that request
// still brings is given back at once, not held for AckWait (30 s here)
// by a receiver that no longer exists.
func TestNATSAbandonedReceiveGivesBack(t *testing.T) {
	t.Parallel()
	url := startNATS(t, t.TempDir(), 0).ClientURL()
	team := newTeamName()
	mb, err := OpenNATS(url, team, NATSOptions{AckWait: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer mb.Close()
	if _, err := mb.Pending(testCtx(t), "worker"); err != nil { // the consumer exists
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := mb.Receive(ctx, "worker"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatal(err)
	}
	m := textMsg(t, team, "lead", "worker", "x")
	send(t, mb, m) // the abandoned pull request, still waiting, takes it
	ctx2, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel2()
	d, err := mb.Receive(ctx2, "worker")
	if err != nil {
		t.Fatalf("the message went to an abandoned Receive and was not given back: %v", err)
	}
	if d.Message().ID != m.ID {
		t.Fatalf("got %s", d.Message().ID)
	}
}

// TestNATSServerRestart: while the server is down Send fails with a
// clear error after its deadline and a Receive waits; when the server
// comes back (same port, same store) both go on, and nothing stored
// before is lost.
func TestNATSServerRestart(t *testing.T) {
	t.Parallel()
	store := t.TempDir()
	srv := startNATS(t, store, 0)
	port := serverPort(srv)
	url := srv.ClientURL()
	team := newTeamName()
	mb, err := OpenNATS(url, team, NATSOptions{SendTimeout: 700 * time.Millisecond, AckWait: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer mb.Close()
	m1, m2 := textMsg(t, team, "lead", "worker", "1"), textMsg(t, team, "lead", "worker", "2")
	send(t, mb, m1)

	srv.Shutdown()
	srv.WaitForShutdown()
	start := time.Now()
	err = mb.Send(context.Background(), m2)
	if err == nil || !strings.Contains(err.Error(), "did not confirm") || !strings.Contains(err.Error(), "sending the same message again is safe") {
		t.Fatalf("Send with the server down: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Send took %v to fail, its deadline is 700ms", d)
	}

	// A receiver waiting through the outage.
	got := make(chan []string, 1)
	go func() {
		var ids []string
		for range 2 {
			d, err := mb.Receive(testCtx(t), "worker")
			if err != nil {
				t.Error(err)
				break
			}
			ids = append(ids, d.Message().ID)
			if err := d.Ack(testCtx(t)); err != nil {
				t.Error(err)
			}
		}
		got <- ids
	}()

	startNATS(t, store, port)
	// The caller's retry: the same message until the server confirms.
	deadline := time.Now().Add(20 * time.Second)
	for err := mb.Send(context.Background(), m2); err != nil; err = mb.Send(context.Background(), m2) {
		if time.Now().After(deadline) {
			t.Fatalf("Send never succeeded after the restart: %v", err)
		}
	}
	ids := <-got
	if len(ids) != 2 || ids[0] != m1.ID || ids[1] != m2.ID {
		t.Fatalf("received %v, want [%s %s]", ids, m1.ID, m2.ID)
	}
	if n := pending(t, mb, "worker"); n != 0 {
		t.Fatalf("pending = %d: a retried send was stored twice", n)
	}
}

// TestNATSConsumerDeleted: a consumer deleted on the server (by an
// operator, or a cleanup) is created again on the next Receive, and the
// messages, which belong to the stream, are still there.
func TestNATSConsumerDeleted(t *testing.T) {
	t.Parallel()
	url := startNATS(t, t.TempDir(), 0).ClientURL()
	team := newTeamName()
	mb := openNATSInternal(t, url, team)
	m := textMsg(t, team, "lead", "worker", "x")
	send(t, mb, m)
	if n := pending(t, mb, "worker"); n != 1 {
		t.Fatalf("pending = %d", n)
	}
	if err := mb.js.DeleteConsumer(testCtx(t), natsStreamName(team), "inbox-worker"); err != nil {
		t.Fatal(err)
	}
	if d := receive(t, mb, "worker"); d.Message().ID != m.ID {
		t.Fatalf("got %s", d.Message().ID)
	}
}

func TestOpenNATSErrors(t *testing.T) {
	t.Parallel()
	_, err := OpenNATS("nats://alice:s3cret@127.0.0.1:1", "team", NATSOptions{ConnectTimeout: 2 * time.Second})
	if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "cannot reach the NATS server at nats://xxxxx@127.0.0.1:1") {
		t.Fatalf("unreachable server: %v", err)
	}
	_, err = OpenNATS("http://127.0.0.1:4222", "team", NATSOptions{})
	if err == nil || !strings.Contains(err.Error(), "not a nats:// URL") {
		t.Fatalf("http URL: %v", err)
	}

	plain, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	plain.Start()
	defer plain.Shutdown()
	if !plain.ReadyForConnections(10 * time.Second) {
		t.Fatal("server did not start")
	}
	_, err = OpenNATS(plain.ClientURL(), "team", NATSOptions{ConnectTimeout: 3 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "JetStream") {
		t.Fatalf("server without JetStream: %v", err)
	}
}
