package event

import "sync"

// Bus fans events out to subscribers.
//
// Delivery promise: events reach each subscriber in the order they were
// published. TextDelta events are lossy: when a subscriber's buffer is
// full they are dropped for that subscriber rather than slowing the
// session, because the AssistantMessage that follows carries the whole
// text. Every other event is must-deliver: Publish waits for room in the
// subscriber's buffer. A subscriber must therefore keep reading until it
// unsubscribes.
type Bus struct {
	mu   sync.RWMutex
	subs map[*subscriber]struct{}
}

type subscriber struct {
	ch   chan Event
	done chan struct{}
	once sync.Once
}

// NewBus returns a bus without subscribers.
func NewBus() *Bus { return &Bus{subs: map[*subscriber]struct{}{}} }

// Subscribe returns a channel of events with room for buf of them, and a
// function that ends the subscription (and closes the channel).
func (b *Bus) Subscribe(buf int) (<-chan Event, func()) {
	s := &subscriber{ch: make(chan Event, buf), done: make(chan struct{})}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	return s.ch, func() {
		s.once.Do(func() {
			close(s.done)
			b.mu.Lock()
			delete(b.subs, s)
			b.mu.Unlock()
			close(s.ch)
		})
	}
}

// Publish delivers e to every subscriber as the promise above says.
func (b *Bus) Publish(e Event) {
	_, lossy := e.(TextDelta)
	b.mu.RLock()
	defer b.mu.RUnlock()
	for s := range b.subs {
		if lossy {
			select {
			case s.ch <- e:
			default:
			}
			continue
		}
		select {
		case s.ch <- e:
		case <-s.done:
		}
	}
}
