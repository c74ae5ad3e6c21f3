package builtin

import (
	"errors"
	"sync"
)

// errBarred refuses to start a command outside the sandbox once plan mode
// has begun: the engine let it run in another mode, and the mode changed
// between that decision and the start.
var errBarred = errors.New("plan mode began before this command started; in plan mode commands run only inside the OS sandbox, so it did not run")

// freeRun is one command running outside the sandbox, in the foreground
// or the background. Plan mode stops every such command when it begins,
// so that nothing started before it changes files while it is on.
type freeRun struct {
	mu      sync.Mutex
	r       *shellRun
	stopped bool
}

// barrier tracks the commands running outside the sandbox and, while
// plan mode is on, refuses to start new ones. Its zero value is open.
type barrier struct {
	mu     sync.Mutex
	barred bool
	runs   map[*freeRun]struct{}
}

// admit registers a command about to start outside the sandbox, or
// refuses it while the barrier is up.
func (b *barrier) admit() (*freeRun, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.barred {
		return nil, errBarred
	}
	if b.runs == nil {
		b.runs = map[*freeRun]struct{}{}
	}
	f := &freeRun{}
	b.runs[f] = struct{}{}
	return f, nil
}

// started records the process of an admitted command; one stopped before
// it got here is killed at once.
func (f *freeRun) started(r *shellRun) {
	f.mu.Lock()
	f.r = r
	stopped := f.stopped
	f.mu.Unlock()
	if stopped {
		r.kill()
	}
}

// wasStopped reports whether plan mode stopped the command.
func (f *freeRun) wasStopped() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stopped
}

// release forgets a command that has ended.
func (b *barrier) release(f *freeRun) {
	b.mu.Lock()
	delete(b.runs, f)
	b.mu.Unlock()
}

// raise refuses new commands outside the sandbox and kills every running
// one with everything it started, waiting until they are gone. It returns
// how many it stopped.
func (b *barrier) raise() int {
	b.mu.Lock()
	b.barred = true
	runs := make([]*freeRun, 0, len(b.runs))
	for f := range b.runs {
		runs = append(runs, f)
	}
	b.mu.Unlock()
	n := 0
	for _, f := range runs {
		f.mu.Lock()
		r, already := f.r, f.stopped
		f.stopped = true
		f.mu.Unlock()
		if already {
			continue
		}
		n++
		if r != nil {
			r.kill()
		}
	}
	return n
}

// lower lets commands outside the sandbox start again.
func (b *barrier) lower() {
	b.mu.Lock()
	b.barred = false
	b.mu.Unlock()
}

// kill ends the command and everything it started at once, and waits for
// the shell itself to be gone.
func (r *shellRun) kill() {
	signalGroup(r.pid, true)
	r.tracker.KillSession(r.pid)
	<-r.proc.Done()
}

// EnterPlanMode stops every command running outside the sandbox (in the
// foreground or the background, started by any agent of the session) and
// refuses to start more until LeavePlanMode; it returns how many it
// stopped. The session calls it as plan mode begins, before the change
// takes effect for the next call.
func (s *Shells) EnterPlanMode() int { return s.free.raise() }

// LeavePlanMode lets commands outside the sandbox start again.
func (s *Shells) LeavePlanMode() { s.free.lower() }
