// Package planbar tracks the processes a session runs outside the OS
// sandbox (shell commands, hooks), so that plan mode can stop them as it
// begins: one started a moment before must not go on changing files
// while plan mode is on. While the bar is raised no new one is admitted;
// the caller confines it or refuses it.
package planbar

import "sync"

// Bar is the session's set of unconfined runs. Its zero value is open;
// it is safe for concurrent use.
type Bar struct {
	mu     sync.Mutex
	raised bool
	runs   map[*Run]struct{}
}

// Run is one process admitted outside the sandbox.
type Run struct {
	mu      sync.Mutex
	kill    func()
	stopped bool
}

// Admit registers a process about to start outside the sandbox; it
// returns nil while the bar is raised.
func (b *Bar) Admit() *Run {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.raised {
		return nil
	}
	if b.runs == nil {
		b.runs = map[*Run]struct{}{}
	}
	r := &Run{}
	b.runs[r] = struct{}{}
	return r
}

// Release forgets a run that has ended.
func (b *Bar) Release(r *Run) {
	b.mu.Lock()
	delete(b.runs, r)
	b.mu.Unlock()
}

// Started records how to kill the admitted process, with everything it
// started; one stopped before it got here is killed at once.
func (r *Run) Started(kill func()) {
	r.mu.Lock()
	r.kill = kill
	stopped := r.stopped
	r.mu.Unlock()
	if stopped {
		kill()
	}
}

// Stopped reports whether raising the bar stopped the run.
func (r *Run) Stopped() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stopped
}

// Raise refuses new runs and kills every running one (each kill waits
// as long as the caller's kill does). It returns how many it stopped.
func (b *Bar) Raise() int {
	b.mu.Lock()
	b.raised = true
	runs := make([]*Run, 0, len(b.runs))
	for r := range b.runs {
		runs = append(runs, r)
	}
	b.mu.Unlock()
	n := 0
	for _, r := range runs {
		r.mu.Lock()
		kill, already := r.kill, r.stopped
		r.stopped = true
		r.mu.Unlock()
		if already {
			continue
		}
		n++
		if kill != nil {
			kill()
		}
	}
	return n
}

// Lower admits runs again.
func (b *Bar) Lower() {
	b.mu.Lock()
	b.raised = false
	b.mu.Unlock()
}
