package event

import "testing"

func TestBusDeliversInOrderAndDropsOnlyDeltas(t *testing.T) {
	b := NewBus()
	ch, stop := b.Subscribe(2)
	defer stop()
	// Fill the buffer with deltas: further deltas are dropped, not blocked on.
	for range 10 {
		b.Publish(TextDelta{Text: "x"})
	}
	got := 0
	for range 2 {
		if _, ok := (<-ch).(TextDelta); ok {
			got++
		}
	}
	if got != 2 {
		t.Fatalf("received %d deltas, want the 2 that fit", got)
	}
	done := make(chan struct{})
	go func() {
		for i := range 5 {
			b.Publish(Notice{Text: string(rune('a' + i))})
		}
		close(done)
	}()
	for i := range 5 {
		n := (<-ch).(Notice)
		if n.Text != string(rune('a'+i)) {
			t.Fatalf("event %d = %q, out of order", i, n.Text)
		}
	}
	<-done
}

func TestUnsubscribeReleasesPublisher(t *testing.T) {
	b := NewBus()
	_, stop := b.Subscribe(0)
	done := make(chan struct{})
	go func() {
		b.Publish(Notice{Text: "blocked until unsubscribe"})
		close(done)
	}()
	stop()
	<-done
	stop() // a second call is harmless
}
