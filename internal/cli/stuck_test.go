package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// After a stop signal, ponder ends on its own within the grace period
// even when whatever it waits on ignores cancellation, and at once on a
// second stop signal.
func TestExitIfStuck(t *testing.T) {
	t.Run("grace", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		exited := make(chan struct{})
		go exitIfStuck(ctx, 10*time.Millisecond, func() { close(exited) })
		select {
		case <-exited:
			t.Fatal("exited before any stop signal")
		case <-time.After(50 * time.Millisecond):
		}
		cancel()
		<-exited
	})
	t.Run("second signal", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		exited := make(chan struct{})
		go exitIfStuck(ctx, time.Hour, func() { close(exited) })
		// The test listens too, so that a signal sent before
		// exitIfStuck listens does not end the test process; send until
		// exitIfStuck has seen one.
		sink := make(chan os.Signal, 64)
		signal.Notify(sink, syscall.SIGHUP)
		defer signal.Stop(sink)
		for {
			syscall.Kill(syscall.Getpid(), syscall.SIGHUP)
			select {
			case <-exited:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	})
}
