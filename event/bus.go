package event

import "sync"

// Bus fans events out to subscribers.
//
// Delivery promise: Publish never blocks the publisher, whatever the
// subscribers do, so a front end may publish from the goroutine that
// reads its own subscription. Events reach each subscriber in the order
// they were published, through a queue of its own that a goroutine
// drains into the subscriber's channel. TextDelta events are lossy: while
// a subscriber's queue holds as many events as its channel has room for,
// new deltas are dropped for it, because the AssistantMessage that follows
// carries the whole text. Every other event is must-deliver: it waits in
// the queue, however long the queue grows, until the subscriber reads it
// or unsubscribes. A subscriber that stops reading must therefore
// unsubscribe.
type Bus struct {
	mu   sync.RWMutex
	subs map[*subscriber]struct{}
}

// subscriber is one subscription: its queue and the channel the queue is
// drained into.
type subscriber struct {
	ch chan Event
	// lossyAt is the queue length from which text deltas are dropped.
	lossyAt int

	mu    sync.Mutex
	queue []Event
	// busy says the drain holds events it has not yet delivered; until
	// it is done, new events queue behind them.
	busy bool
	wake chan struct{} // holds one token when the queue may have grown
	done chan struct{}
	once sync.Once
}

// NewBus returns a bus without subscribers.
func NewBus() *Bus { return &Bus{subs: map[*subscriber]struct{}{}} }

// Subscribe returns a channel of events with room for buf of them, and a
// function that ends the subscription. The channel is closed soon after
// the subscription ends; events still queued then are dropped.
func (b *Bus) Subscribe(buf int) (<-chan Event, func()) {
	s := &subscriber{ch: make(chan Event, buf), lossyAt: max(buf, 1), wake: make(chan struct{}, 1), done: make(chan struct{})}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	go s.drain()
	return s.ch, func() {
		s.once.Do(func() {
			b.mu.Lock()
			delete(b.subs, s)
			b.mu.Unlock()
			close(s.done)
		})
	}
}

// Publish queues e for every subscriber as the promise above says. It
// never waits for a subscriber.
func (b *Bus) Publish(e Event) {
	_, lossy := e.(TextDelta)
	b.mu.RLock()
	defer b.mu.RUnlock()
	for s := range b.subs {
		s.push(e, lossy)
	}
}

// push hands e to the subscriber: straight into its channel when nothing
// waits before it and there is room, else into its queue for the drain.
func (s *subscriber) push(e Event, lossy bool) {
	s.mu.Lock()
	if len(s.queue) == 0 && !s.busy {
		select {
		case s.ch <- e:
			s.mu.Unlock()
			return
		default:
		}
	}
	if lossy && len(s.queue) >= s.lossyAt {
		s.mu.Unlock()
		return
	}
	s.queue = append(s.queue, e)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// drain moves queued events into the channel, in order, until the
// subscription ends; then it closes the channel.
func (s *subscriber) drain() {
	defer func() {
		s.mu.Lock()
		close(s.ch)
		s.mu.Unlock()
	}()
	for {
		s.mu.Lock()
		batch := s.queue
		s.queue = nil
		s.busy = len(batch) > 0
		s.mu.Unlock()
		if len(batch) == 0 {
			select {
			case <-s.wake:
				continue
			case <-s.done:
				return
			}
		}
		for i, e := range batch {
			select {
			case s.ch <- e:
				batch[i] = nil
			case <-s.done:
				return
			}
		}
	}
}
