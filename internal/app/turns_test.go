package app

import (
	"context"
	"testing"
	"time"
)

func TestRunningStopCancelsAndWaits(t *testing.T) {
	var r running
	ctx, done := r.track(context.Background())
	finished := make(chan struct{})
	go func() {
		<-ctx.Done() // the work notices the cancellation…
		close(finished)
		done() // …records how it ended, and reports back
	}()
	if !r.stop(5 * time.Second) {
		t.Fatal("stop did not see the work end")
	}
	select {
	case <-finished:
	default:
		t.Fatal("stop returned before the work ended")
	}
	// Work started after stop is cancelled at once.
	late, lateDone := r.track(context.Background())
	defer lateDone()
	if late.Err() == nil {
		t.Error("work started after stop is not cancelled")
	}
}

func TestRunningStopGivesUpOnStuckWork(t *testing.T) {
	var r running
	_, done := r.track(context.Background())
	defer done()
	if r.stop(20 * time.Millisecond) {
		t.Fatal("stop reported stuck work as ended")
	}
}
