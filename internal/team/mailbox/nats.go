package mailbox

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The JetStream mailbox keeps each team in one stream, PONDER_TEAM_<team>,
// on the subjects ponder.team.<team>.inbox.<name> (and .rejected.<name>
// for unreadable messages set aside), with work-queue
// retention: a message stays stored until the inbox's consumer
// acknowledges it, then it is deleted. Each inbox has one durable pull
// consumer, inbox-<name>, shared by every receiver of that inbox in any
// process, with:
//
//   - explicit acks, and MaxAckPending 1: one delivery outstanding at a
//     time, which keeps the inbox in send order even across redeliveries;
//   - AckWait 30 s: how long a receiver that vanished (killed, cut off)
//     holds its message before it is delivered again. A live receiver
//     never loses its lease, however long it works: its delivery tells
//     the server it is still in progress every AckWait/3;
//   - MaxDeliver unlimited: JetStream would otherwise drop a message after
//     so many attempts, silently losing a request; a receiver that cannot
//     use a message says so by acknowledging it;
//   - an inactive threshold of a week, after which an unread inbox's
//     consumer (not its messages) is removed, and created again on use.
//
// Sends carry <recipient>/<message ID> as Nats-Msg-Id, so the server
// stores a retried send once within its duplicate window (10 minutes
// here); the receiver's Seen record catches a copy sent later than that.
// The recipient is part of it because the server's window covers the
// whole stream, and a retry is a duplicate only within one inbox, as in
// the file mailbox.

// NATSOptions tunes the JetStream mailbox; the zero value is the default.
type NATSOptions struct {
	// AckWait is how long a delivery whose receiver is gone stays leased
	// (default 30 s).
	AckWait time.Duration
	// SendTimeout bounds Send, reconnection included (default 10 s).
	SendTimeout time.Duration
	// ConnectTimeout bounds OpenNATS (default 10 s).
	ConnectTimeout time.Duration
	// ClientName is shown by the server for the connection (default
	// "ponder").
	ClientName string
}

func (o NATSOptions) withDefaults() NATSOptions {
	if o.AckWait <= 0 {
		o.AckWait = 30 * time.Second
	}
	if o.SendTimeout <= 0 {
		o.SendTimeout = 10 * time.Second
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = 10 * time.Second
	}
	if o.ClientName == "" {
		o.ClientName = "ponder"
	}
	return o
}

const (
	// natsDuplicateWindow is how long the server remembers message IDs.
	natsDuplicateWindow = 10 * time.Minute
	// natsInactiveThreshold is how long an unread inbox keeps its
	// consumer on the server.
	natsInactiveThreshold = 7 * 24 * time.Hour
	// pullWait is how long one pull request waits on the server; a
	// Receive repeats it until a message comes or its context ends.
	pullWait = 5 * time.Second
)

type natsMailbox struct {
	team   string
	server string // the URL without credentials, for errors
	opts   NATSOptions
	nc     *nats.Conn
	js     jetstream.JetStream
	stream string

	mu          sync.Mutex
	closed      bool
	done        chan struct{} // closed by Close
	consumers   map[string]jetstream.Consumer
	outstanding map[*natsDelivery]struct{}
}

func natsStreamName(team string) string    { return "PONDER_TEAM_" + team }
func natsSubject(team, name string) string { return "ponder.team." + team + ".inbox." + name }
func natsConsumerName(name string) string  { return "inbox-" + name }

// natsMsgID is the de-duplication ID of msg: one per inbox.
func natsMsgID(msg Message) string { return msg.To + "/" + msg.ID }

// natsRejectedSubject is where unreadable messages sent to name are
// kept; no consumer reads it.
func natsRejectedSubject(team, name string) string {
	return "ponder.team." + team + ".rejected." + name
}

// OpenNATS connects to the JetStream server(s) at serverURL and returns
// the mailbox of team, creating its stream if needed. The connection
// reconnects on its own, with backoff, for as long as the mailbox is
// open.
func OpenNATS(serverURL, team string, opts NATSOptions) (Mailbox, error) {
	if err := ValidateName("team", team); err != nil {
		return nil, err
	}
	if !isNATSURL(serverURL) {
		return nil, fmt.Errorf("mailbox: %s is not a nats:// URL", quote(redactURL(serverURL)))
	}
	opts = opts.withDefaults()
	m := &natsMailbox{
		team: team, server: redactURL(serverURL), opts: opts, stream: natsStreamName(team),
		done: make(chan struct{}), consumers: map[string]jetstream.Consumer{}, outstanding: map[*natsDelivery]struct{}{},
	}
	nc, err := nats.Connect(serverURL,
		nats.Name(opts.ClientName),
		nats.Timeout(opts.ConnectTimeout),
		nats.MaxReconnects(-1),
		nats.PingInterval(20*time.Second), // notice a dead server within a minute
		nats.CustomReconnectDelay(reconnectDelay),
	)
	if err != nil {
		return nil, fmt.Errorf("mailbox: cannot reach the NATS server at %s: %w", m.server, err)
	}
	m.nc = nc
	if m.js, err = jetstream.New(nc); err != nil {
		nc.Close()
		return nil, fmt.Errorf("mailbox: JetStream at %s: %w", m.server, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), opts.ConnectTimeout)
	defer cancel()
	_, err = m.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        m.stream,
		Description: "ponder team " + team + ": one subject per member's inbox",
		Subjects:    []string{natsSubject(team, "*"), natsRejectedSubject(team, "*")},
		Retention:   jetstream.WorkQueuePolicy,
		Storage:     jetstream.FileStorage,
		Duplicates:  natsDuplicateWindow,
		MaxMsgSize:  MaxMessageBytes,
		Replicas:    1,
	})
	if err != nil {
		nc.Close()
		if errors.Is(err, jetstream.ErrJetStreamNotEnabled) || errors.Is(err, nats.ErrNoResponders) {
			return nil, fmt.Errorf("mailbox: the NATS server at %s does not have JetStream enabled (start it with -js)", m.server)
		}
		return nil, fmt.Errorf("mailbox: creating the stream %s at %s: %w", m.stream, m.server, err)
	}
	return m, nil
}

// reconnectDelay backs off from 100 ms to 5 s, with jitter so that many
// members do not all come back at once.
func reconnectDelay(attempts int) time.Duration {
	d := min(100*time.Millisecond<<min(attempts, 6), 5*time.Second)
	return d/2 + rand.N(d/2+1)
}

func (m *natsMailbox) Team() string { return m.team }

func (m *natsMailbox) checkOpen() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	return nil
}

// consumer returns name's durable consumer, creating it (with the same
// configuration whoever creates it) the first time.
func (m *natsMailbox) consumer(ctx context.Context, name string) (jetstream.Consumer, error) {
	m.mu.Lock()
	c := m.consumers[name]
	m.mu.Unlock()
	if c != nil {
		return c, nil
	}
	c, err := m.js.CreateOrUpdateConsumer(ctx, m.stream, jetstream.ConsumerConfig{
		Durable:       natsConsumerName(name),
		Description:   "the inbox of " + name,
		FilterSubject: natsSubject(m.team, name),
		DeliverPolicy: jetstream.DeliverAllPolicy,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       m.opts.AckWait,
		MaxDeliver:    -1,
		MaxAckPending: 1,
		// An inbox no one has read for a week loses its consumer, not
		// its messages (they stay in the stream until acknowledged): the
		// next Receive creates it again and starts from the oldest. This
		// keeps the server from collecting consumers for every name
		// anyone ever asked about.
		InactiveThreshold: natsInactiveThreshold,
	})
	if err != nil {
		return nil, m.wrap(fmt.Sprintf("opening the inbox of %s", name), err)
	}
	m.mu.Lock()
	m.consumers[name] = c
	m.mu.Unlock()
	return c, nil
}

// forget drops a cached consumer, so the next use creates it again (it
// may have been deleted on the server).
func (m *natsMailbox) forget(name string) {
	m.mu.Lock()
	delete(m.consumers, name)
	m.mu.Unlock()
}

// wrap words an error of the server, naming it without credentials.
func (m *natsMailbox) wrap(doing string, err error) error {
	if errors.Is(err, nats.ErrConnectionClosed) && m.checkOpen() != nil {
		return ErrClosed
	}
	return fmt.Errorf("mailbox: %s at %s: %w", doing, m.server, err)
}

// Send publishes msg with natsMsgID as Nats-Msg-Id and waits for the
// server to confirm it stored it, for at most SendTimeout (or ctx).
func (m *natsMailbox) Send(ctx context.Context, msg Message) error {
	if err := m.checkOpen(); err != nil {
		return err
	}
	if msg.Team != m.team {
		return fmt.Errorf("mailbox: message %s is for team %s, this mailbox serves %s", quote(msg.ID), quote(msg.Team), m.team)
	}
	data, err := msg.encode()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, m.opts.SendTimeout)
	defer cancel()
	_, err = m.js.PublishMsg(ctx, &nats.Msg{Subject: natsSubject(m.team, msg.To), Data: data},
		jetstream.WithMsgID(natsMsgID(msg)), jetstream.WithExpectStream(m.stream))
	if err == nil {
		return nil
	}
	if ctx.Err() != nil && errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("mailbox: sending message %s to %s: the NATS server at %s did not confirm it within %s (it may still be stored; sending the same message again is safe): %w",
			msg.ID, msg.To, m.server, m.opts.SendTimeout, err)
	}
	return m.wrap(fmt.Sprintf("sending message %s to %s", msg.ID, msg.To), err)
}

// Pending is the consumer's undelivered plus unacknowledged count.
func (m *natsMailbox) Pending(ctx context.Context, name string) (int, error) {
	if err := m.checkOpen(); err != nil {
		return 0, err
	}
	if err := ValidateName("member", name); err != nil {
		return 0, err
	}
	c, err := m.consumer(ctx, name)
	if err != nil {
		return 0, err
	}
	info, err := c.Info(ctx)
	if err != nil {
		m.forget(name)
		return 0, m.wrap(fmt.Sprintf("counting the inbox of %s", name), err)
	}
	return int(info.NumPending) + info.NumAckPending, nil
}

// Close gives back the unsettled deliveries and closes the connection.
func (m *natsMailbox) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	pending := make([]*natsDelivery, 0, len(m.outstanding))
	for d := range m.outstanding {
		pending = append(pending, d)
	}
	m.mu.Unlock()
	for _, d := range pending {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = d.Nak(ctx) // if it fails, the server redelivers after AckWait
		cancel()
	}
	m.mu.Lock()
	m.closed = true
	close(m.done)
	m.mu.Unlock()
	m.nc.Close()
	return nil
}
