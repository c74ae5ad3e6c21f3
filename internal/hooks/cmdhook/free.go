package cmdhook

import "sync"

// Free tracks a session's hooks running outside the sandbox, so that plan
// mode can stop them as it begins: a hook started a moment before (a
// PostToolUse hook of a parallel call, a Notification hook of the
// question that turned plan mode on) must not go on changing files while
// plan mode is on. While plan mode is on, hooks that would start outside
// start inside the sandbox instead. Its zero value is open; it is safe for
// concurrent use.
type Free struct {
	mu     sync.Mutex
	barred bool
	runs   map[*freeRun]struct{}
}

// freeRun is one hook running outside the sandbox.
type freeRun struct {
	mu      sync.Mutex
	kill    func()
	stopped bool
}

// admit registers a hook about to start outside the sandbox; it returns
// nil while plan mode is on, and the hook must then be confined.
func (f *Free) admit() *freeRun {
	if f == nil {
		return &freeRun{}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.barred {
		return nil
	}
	if f.runs == nil {
		f.runs = map[*freeRun]struct{}{}
	}
	r := &freeRun{}
	f.runs[r] = struct{}{}
	return r
}

// started records how to kill the admitted hook; one stopped before it
// got here is killed at once.
func (r *freeRun) started(kill func()) {
	r.mu.Lock()
	r.kill = kill
	stopped := r.stopped
	r.mu.Unlock()
	if stopped {
		kill()
	}
}

// wasStopped reports whether plan mode stopped the hook.
func (r *freeRun) wasStopped() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stopped
}

// release forgets a hook that has ended.
func (f *Free) release(r *freeRun) {
	if f == nil {
		return
	}
	f.mu.Lock()
	delete(f.runs, r)
	f.mu.Unlock()
}

// EnterPlanMode kills every hook running outside the sandbox, with what
// it started, and confines those that start until LeavePlanMode. It
// returns how many it stopped.
func (f *Free) EnterPlanMode() int {
	f.mu.Lock()
	f.barred = true
	runs := make([]*freeRun, 0, len(f.runs))
	for r := range f.runs {
		runs = append(runs, r)
	}
	f.mu.Unlock()
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

// LeavePlanMode lets hooks start outside the sandbox again.
func (f *Free) LeavePlanMode() {
	f.mu.Lock()
	f.barred = false
	f.mu.Unlock()
}
