package mailbox

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Receive pulls the next message of name's consumer. A message that is
// not a valid message for this inbox (someone published raw bytes on
// the subject) is terminated, so it is never delivered again, and
// reported as a *BadMessageError.
func (m *natsMailbox) Receive(ctx context.Context, name string) (Delivery, error) {
	if err := m.checkOpen(); err != nil {
		return nil, err
	}
	if err := ValidateName("member", name); err != nil {
		return nil, err
	}
	raw, err := m.next(ctx, name)
	if err != nil {
		return nil, err
	}
	var seq uint64
	if meta, err := raw.Metadata(); err == nil {
		seq = meta.Sequence.Stream
	}
	where := fmt.Sprintf("stream %s, sequence %d", m.stream, seq)
	msg, derr := decodeMessage(raw.Data(), m.team, name, where)
	if derr != nil {
		return nil, m.setAside(ctx, name, raw, seq, derr)
	}
	d := &natsDelivery{m: m, raw: raw, msg: msg, stop: make(chan struct{})}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		_ = raw.Nak()
		return nil, ErrClosed
	}
	m.outstanding[d] = struct{}{}
	m.mu.Unlock()
	go d.keepAlive(m.opts.AckWait / 3)
	return d, nil
}

// setAside copies an unreadable message to the team's rejected subject
// for name, where it stays (no consumer reads it) for a person to look
// at, and terminates the original so it blocks the inbox no longer.
func (m *natsMailbox) setAside(ctx context.Context, name string, raw jetstream.Msg, seq uint64, cause error) error {
	keep := &nats.Msg{Subject: natsRejectedSubject(m.team, name), Data: raw.Data(), Header: nats.Header{}}
	keep.Header.Set("Ponder-Rejected-Sequence", fmt.Sprint(seq))
	keep.Header.Set("Ponder-Rejected-Reason", cause.Error())
	ctx, cancel := context.WithTimeout(ctx, m.opts.SendTimeout)
	defer cancel()
	_, err := m.js.PublishMsg(ctx, keep, jetstream.WithMsgID(fmt.Sprintf("rejected/%d", seq)), jetstream.WithExpectStream(m.stream))
	if err != nil && m.transient() {
		_ = raw.Nak() // try again once the server is back
		return m.wrap(fmt.Sprintf("setting aside an unreadable message (sequence %d) for %s", seq, name), err)
	}
	_ = raw.TermWithReason("not a ponder mailbox message")
	where := fmt.Sprintf("%s at %s, copied to %s", m.stream, m.server, keep.Subject)
	if err != nil {
		where = fmt.Sprintf("%s at %s, dropped: it could not be copied: %v", m.stream, m.server, err)
	}
	return &BadMessageError{Inbox: name, Where: fmt.Sprintf("sequence %d of stream %s", seq, where), Err: cause}
}

type fetched struct {
	msg jetstream.Msg
	err error
}

// next waits for one message of name's consumer. Each pull request
// waits up to pullWait on the server and runs in its own goroutine; when
// ctx ends or the mailbox closes first, the request is left to finish
// and whatever it still brings is given back at once (Nak), so an
// abandoned Receive does not hold a message for AckWait.
func (m *natsMailbox) next(ctx context.Context, name string) (jetstream.Msg, error) {
	backoff := 50 * time.Millisecond
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c, err := m.consumer(ctx, name)
		if err != nil {
			if !m.transient() {
				return nil, err
			}
		} else {
			res := make(chan fetched, 1)
			go func() {
				msg, err := c.Next(jetstream.FetchMaxWait(pullWait))
				res <- fetched{msg, err}
			}()
			select {
			case r := <-res:
				if r.err == nil {
					return r.msg, nil
				}
				if errors.Is(r.err, nats.ErrTimeout) {
					backoff = 50 * time.Millisecond
					continue // nothing came during pullWait: ask again
				}
				if err := m.checkOpen(); err != nil {
					return nil, err
				}
				m.forget(name)
				if !m.transient() && !consumerGone(r.err) {
					return nil, m.wrap(fmt.Sprintf("receiving for %s", name), r.err)
				}
			case <-ctx.Done():
				go giveBack(res)
				return nil, ctx.Err()
			case <-m.done:
				go giveBack(res)
				return nil, ErrClosed
			}
		}
		// The server is unreachable or the consumer went away: wait and
		// try again (the connection reconnects by itself).
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-m.done:
			t.Stop()
			return nil, ErrClosed
		case <-t.C:
		}
		backoff = min(2*backoff, 2*time.Second)
	}
}

// consumerGone reports whether a pull failed because the consumer no
// longer exists (a pull request to a deleted consumer finds no one to
// answer it): it is created again.
func consumerGone(err error) bool {
	return errors.Is(err, jetstream.ErrConsumerDeleted) || errors.Is(err, jetstream.ErrConsumerNotFound) || errors.Is(err, nats.ErrNoResponders)
}

// transient reports whether the connection is down for now (and will
// be tried again) rather than closed or failing for good.
func (m *natsMailbox) transient() bool {
	return m.checkOpen() == nil && !m.nc.IsConnected() && !m.nc.IsClosed()
}

// giveBack naks whatever an abandoned pull request still returns.
func giveBack(res <-chan fetched) {
	if r := <-res; r.err == nil && r.msg != nil {
		_ = r.msg.Nak()
	}
}

// natsDelivery is a message pulled from a consumer and not yet settled.
// While it is unsettled it tells the server every AckWait/3 that work is
// in progress, so a live receiver keeps its lease.
type natsDelivery struct {
	m   *natsMailbox
	raw jetstream.Msg
	msg Message

	mu      sync.Mutex
	settled bool
	stop    chan struct{}
}

func (d *natsDelivery) Message() Message { return d.msg }

func (d *natsDelivery) keepAlive(every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-t.C:
			_ = d.raw.InProgress()
		}
	}
}

// Ack acknowledges and waits for the server to confirm it: after a nil
// return the message is deleted and never delivered again. On error the
// delivery stays leased and Ack may be called again.
func (d *natsDelivery) Ack(ctx context.Context) error {
	return d.settle(func() error {
		if err := d.raw.DoubleAck(ctx); err != nil {
			return d.m.wrap(fmt.Sprintf("acknowledging message %s", d.msg.ID), err)
		}
		return nil
	})
}

// Nak gives the message back for immediate redelivery and waits until
// the request has reached the server.
func (d *natsDelivery) Nak(ctx context.Context) error {
	return d.settle(func() error {
		if err := d.raw.Nak(); err != nil {
			return d.m.wrap(fmt.Sprintf("giving back message %s", d.msg.ID), err)
		}
		if err := d.m.nc.FlushWithContext(ctx); err != nil {
			return d.m.wrap(fmt.Sprintf("giving back message %s", d.msg.ID), err)
		}
		return nil
	})
}

func (d *natsDelivery) settle(do func() error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.settled {
		if err := d.m.checkOpen(); err != nil {
			return err
		}
		return ErrSettled
	}
	if err := do(); err != nil {
		return err
	}
	d.abandon()
	return nil
}

// abandon stops the keep-alive and forgets the delivery without telling
// the server anything: what a crash does. The caller holds d.mu.
func (d *natsDelivery) abandon() {
	if d.settled {
		return
	}
	d.settled = true
	close(d.stop)
	d.m.mu.Lock()
	delete(d.m.outstanding, d)
	d.m.mu.Unlock()
}
