package planbar

import "testing"

// Raising the bar kills every admitted run once, refuses new ones until
// it is lowered, and kills a run that had not started yet as it starts.
func TestRaiseStopsRunsAndBarsNewOnes(t *testing.T) {
	var b Bar
	killed := 0
	running := b.Admit()
	running.Started(func() { killed++ })
	pending := b.Admit()
	done := b.Admit()
	done.Started(func() { t.Error("a released run was killed") })
	b.Release(done)

	if n := b.Raise(); n != 2 {
		t.Fatalf("Raise stopped %d runs, want 2", n)
	}
	if killed != 1 || !running.Stopped() || !pending.Stopped() {
		t.Fatalf("killed %d, stopped %v %v", killed, running.Stopped(), pending.Stopped())
	}
	pending.Started(func() { killed++ })
	if killed != 2 {
		t.Fatal("a run stopped before it started was not killed as it started")
	}
	if b.Admit() != nil {
		t.Fatal("a run was admitted while the bar was raised")
	}
	if n := b.Raise(); n != 0 {
		t.Fatalf("a second Raise stopped %d runs", n)
	}
	b.Lower()
	if r := b.Admit(); r == nil || r.Stopped() {
		t.Fatal("no fresh run admitted after Lower")
	}
}
