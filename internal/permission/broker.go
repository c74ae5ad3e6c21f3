package permission

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/ponder-agent/ponder/event"
)

// Broker is an Asker for front ends that answer asynchronously (a TUI
// dialog, a control channel, an SDK host). Ask publishes the question
// through the notify function and blocks until Answer or Dismiss is called
// for its ID, or until the context ends. The first answer wins; later ones
// are ignored. A Broker never blocks forever: cancelling the context, or
// Close, releases every waiting Ask. However a question ends, the closed
// function hears of it once, with how (event.Answered, event.Dismissed,
// event.Cancelled or event.Closed).
type Broker struct {
	notify  func(Question)
	onClose func(id, how string)

	mu      sync.Mutex
	next    int
	pending map[string]*waiter
	closed  bool
}

type waiter struct {
	seq  int
	q    Question
	done chan reply
}

type reply struct {
	a   Answer
	err error
}

// NewBroker returns a broker that hands each new question to notify, and
// tells closed when it ends. Neither may block for long; they typically
// forward to a UI. Either may be nil.
func NewBroker(notify func(Question), closed func(id, how string)) *Broker {
	return &Broker{notify: notify, onClose: closed, pending: map[string]*waiter{}}
}

// Ask publishes q and waits for its answer.
func (b *Broker) Ask(ctx context.Context, q Question) (Answer, error) {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return Answer{}, ErrInterrupted
	}
	b.next++
	q.ID = fmt.Sprintf("q%d", b.next)
	w := &waiter{seq: b.next, q: q, done: make(chan reply, 1)}
	b.pending[q.ID] = w
	b.mu.Unlock()

	if b.notify != nil {
		b.notify(q)
	}
	select {
	case r := <-w.done:
		return r.a, r.err
	case <-ctx.Done():
		b.finish(q.ID, reply{err: ErrInterrupted}, event.Cancelled)
		return Answer{}, fmt.Errorf("%w: %w", ErrInterrupted, context.Cause(ctx))
	}
}

// Answer delivers the answer to question id. It reports false when the
// question is unknown or was already answered.
func (b *Broker) Answer(id string, a Answer) bool { return b.finish(id, reply{a: a}, event.Answered) }

// Dismiss withdraws question id without an answer: its Ask returns
// ErrInterrupted. It reports false when the question is not pending.
func (b *Broker) Dismiss(id string) bool {
	return b.finish(id, reply{err: ErrInterrupted}, event.Dismissed)
}

// Close dismisses every pending question and makes later ones fail at
// once, for an answerer that went away.
func (b *Broker) Close() {
	b.mu.Lock()
	b.closed = true
	ws := b.pending
	b.pending = map[string]*waiter{}
	b.mu.Unlock()
	for _, w := range ws {
		w.done <- reply{err: ErrInterrupted}
		b.tellClosed(w.q.ID, event.Closed)
	}
}

// Pending lists the questions still waiting, oldest first.
func (b *Broker) Pending() []Question {
	b.mu.Lock()
	defer b.mu.Unlock()
	ws := make([]*waiter, 0, len(b.pending))
	for _, w := range b.pending {
		ws = append(ws, w)
	}
	slices.SortFunc(ws, func(x, y *waiter) int { return x.seq - y.seq })
	out := make([]Question, len(ws))
	for i, w := range ws {
		out[i] = w.q
	}
	return out
}

func (b *Broker) finish(id string, r reply, how string) bool {
	b.mu.Lock()
	w, ok := b.pending[id]
	delete(b.pending, id)
	b.mu.Unlock()
	if ok {
		w.done <- r
		b.tellClosed(id, how)
	}
	return ok
}

func (b *Broker) tellClosed(id, how string) {
	if b.onClose != nil {
		b.onClose(id, how)
	}
}
