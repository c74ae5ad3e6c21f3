package headless

import (
	"context"
	"sync"
)

// queue holds the work a host asked for (user messages, compactions) in
// order, without bound, so that the reader of standard input never waits
// for a turn to end: a control line (an answer, an interrupt, a mode
// change) behind any number of queued messages is read and acted on at
// once.
type queue struct {
	mu     sync.Mutex
	items  []work
	closed bool
	ready  chan struct{} // holds one token when items or closed changed
}

func newQueue() *queue { return &queue{ready: make(chan struct{}, 1)} }

// push adds w at the end.
func (q *queue) push(w work) {
	q.mu.Lock()
	q.items = append(q.items, w)
	q.mu.Unlock()
	q.wake()
}

// close says no more work will come; what is queued is still handed out.
func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.wake()
}

func (q *queue) wake() {
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// next waits for the next piece of work. It reports false when the queue
// is closed and empty, or when ctx ends first.
func (q *queue) next(ctx context.Context) (work, bool) {
	for {
		q.mu.Lock()
		if len(q.items) > 0 {
			w := q.items[0]
			q.items = q.items[1:]
			q.mu.Unlock()
			return w, true
		}
		closed := q.closed
		q.mu.Unlock()
		if closed {
			return work{}, false
		}
		select {
		case <-q.ready:
		case <-ctx.Done():
			return work{}, false
		}
	}
}
