//go:build linux && (amd64 || arm64)

package sandbox

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// A confined command started by a ponder that holds CAP_SYS_ADMIN (run
// as root) gets a PID namespace of its own: its shell is the namespace's
// first process, and when that process ends the kernel kills everything
// else in the namespace. A process the command left behind, however it
// detached itself (setsid, double forks, a process that forks and exits
// over and over so that its pid never stays the same), cannot outlive
// the command; no walk of the process tree is needed for that.
//
// The starting thread unshares the namespace for its children before it
// drops its capabilities, so the command itself never holds
// CAP_SYS_ADMIN and the seccomp filter still refuses new namespaces to
// everything the command runs. Without CAP_SYS_ADMIN (ponder run by an
// ordinary user) there is no namespace, and containment rests on
// proctree's process-group kills, tree walks and reaping, which a
// process that leaves its group and forks fast enough may escape for a
// while.

// pidNamespaceWorks reports whether the starting thread of a command can
// give it a PID namespace. It tries on a thread of its own, which is then
// thrown away: a thread's namespace for its children cannot be undone.
func pidNamespaceWorks() bool {
	res := make(chan bool, 1)
	var try func()
	try = func() {
		runtime.LockOSThread()
		if onMainThread() {
			// The main thread is never ended; hold it while another
			// goroutine, which cannot run on it, tries.
			done := make(chan struct{})
			go func() { defer close(done); try() }()
			<-done
			runtime.UnlockOSThread()
			return
		}
		// Never unlocked: the runtime ends the thread with the goroutine.
		res <- unix.Unshare(unix.CLONE_NEWPID) == nil
	}
	go try()
	return <-res
}

// enterPIDNamespace makes the next process the calling thread starts the
// first of a new PID namespace. Call it on the locked starting thread,
// before the capabilities are dropped.
func enterPIDNamespace() error {
	return unix.Unshare(unix.CLONE_NEWPID)
}

// pidNamespaceNote says, for ponder doctor, how far a confined command's
// processes are contained.
func pidNamespaceNote(on bool) string {
	if on {
		return "processes: a PID namespace per command; whatever a command leaves running dies with its shell"
	}
	return "processes: no PID namespace (it needs root); leftovers are hunted by process group and tree, best effort"
}

// startsPIDNamespaces reports whether the confined commands of s are each
// the first process of a PID namespace of their own.
func (s *Sandbox) startsPIDNamespaces() bool {
	l, ok := s.impl.(*landlock)
	return ok && l.pidns
}
