package event

import (
	"fmt"
	"testing"
	"time"
)

// within fails the test unless f returns before the deadline: the bus
// promises never to block, so a call that does is a failure, not a hang.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		f()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %s", what, d)
	}
}

func TestBusDeliversInOrderAndDropsOnlyDeltas(t *testing.T) {
	b := NewBus()
	ch, stop := b.Subscribe(2)
	defer stop()
	// Nobody reads yet: deltas beyond the subscriber's room are dropped,
	// every other event waits its turn.
	within(t, 5*time.Second, "publishing to a subscriber that does not read", func() {
		for i := range 10 {
			b.Publish(TextDelta{Text: "x"})
			b.Publish(Notice{Text: fmt.Sprint(i)})
		}
	})
	deltas, notices := 0, 0
	for notices < 10 {
		switch e := (<-ch).(type) {
		case TextDelta:
			deltas++
		case Notice:
			if e.Text != fmt.Sprint(notices) {
				t.Fatalf("notice %d = %q, out of order", notices, e.Text)
			}
			notices++
		}
	}
	if deltas == 0 || deltas == 10 {
		t.Fatalf("%d of 10 deltas arrived; want the first few, the rest dropped under load", deltas)
	}
}

// Publish never blocks the publisher, even on a subscription nobody
// reads: a front end that publishes from the goroutine that reads its
// own subscription (the terminal interface does) cannot stall itself.
func TestPublishNeverBlocks(t *testing.T) {
	b := NewBus()
	ch, stop := b.Subscribe(0)
	defer stop()
	const n = 20000
	within(t, 5*time.Second, "publishing 20000 events nobody reads", func() {
		for i := range n {
			b.Publish(Notice{Text: fmt.Sprint(i)})
		}
	})
	for i := range n {
		select {
		case e := <-ch:
			if e.(Notice).Text != fmt.Sprint(i) {
				t.Fatalf("event %d = %v, out of order", i, e)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("event %d of %d never arrived", i, n)
		}
	}
}

func TestUnsubscribeClosesTheChannel(t *testing.T) {
	b := NewBus()
	ch, stop := b.Subscribe(0)
	b.Publish(Notice{Text: "never read"})
	stop()
	stop() // a second call is harmless
	within(t, 5*time.Second, "closing the channel after unsubscribing", func() {
		for range ch {
		}
	})
	within(t, time.Second, "publishing after unsubscribing", func() { b.Publish(Notice{Text: "nobody"}) })
}
