package app

import (
	"context"
	"sync"
	"time"
)

// closeWait bounds how long Close waits for running work to stop after
// cancelling it: long enough for a command to get SIGTERM, its grace
// period and SIGKILL, and for the interrupted turn to be recorded.
const closeWait = 15 * time.Second

// running tracks the work in progress (turns, compactions) so that Close
// can stop it and wait until what it did is recorded: a session ended by
// a signal cancels its turn, which stops its commands, and the transcript
// ends with the interrupted turn rather than in the middle of it.
type running struct {
	mu      sync.Mutex
	wg      sync.WaitGroup
	cancels map[int]context.CancelFunc
	next    int
	closed  bool
}

// track returns a context for one piece of work that Close cancels, and
// the function to call when the work is done.
func (r *running) track(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		cancel()
		return ctx, func() {}
	}
	if r.cancels == nil {
		r.cancels = map[int]context.CancelFunc{}
	}
	id := r.next
	r.next++
	r.cancels[id] = cancel
	r.wg.Add(1)
	return ctx, func() {
		r.mu.Lock()
		delete(r.cancels, id)
		r.mu.Unlock()
		cancel()
		r.wg.Done()
	}
}

// stop cancels all work in progress, refuses new work, and waits up to
// limit for the work to end. It reports whether everything ended.
func (r *running) stop(limit time.Duration) bool {
	r.mu.Lock()
	r.closed = true
	for _, cancel := range r.cancels {
		cancel()
	}
	r.mu.Unlock()
	done := make(chan struct{})
	go func() {
		r.wg.Wait()
		close(done)
	}()
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}
