package sdk

import (
	"sync"

	"github.com/ponder-agent/ponder/event"
)

// queue holds the session's events until Send hands them out. Pushing
// never blocks the session, so a caller that is slow to read never holds
// up a turn; nothing is dropped.
type queue struct {
	mu     sync.Mutex
	events []event.Event
	ready  chan struct{} // one token when events were added
}

func newQueue() *queue { return &queue{ready: make(chan struct{}, 1)} }

// push adds an event; it is the session's synchronous sink.
func (q *queue) push(e event.Event) {
	q.mu.Lock()
	q.events = append(q.events, e)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// take returns the events queued so far and empties the queue.
func (q *queue) take() []event.Event {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.events
	q.events = nil
	return out
}
