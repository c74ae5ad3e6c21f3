package builtin

import "errors"

// errBarred refuses to start a command outside the sandbox once plan mode
// has begun: the engine let it run in another mode, and the mode changed
// between that decision and the start.
var errBarred = errors.New("plan mode began before this command started; in plan mode commands run only inside the OS sandbox, so it did not run")

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
func (s *Shells) EnterPlanMode() int { return s.free.Raise() }

// LeavePlanMode lets commands outside the sandbox start again.
func (s *Shells) LeavePlanMode() { s.free.Lower() }
