//go:build linux

package sandbox

import (
	"os"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// In a build without cgo, noPtraceForChildren takes CAP_SYS_PTRACE out of
// the bounding set of every thread at once. A cgo build cannot do that
// (the C runtime's threads are out of Go's reach), and a thread that kept
// the capability would hand it to any program started from it: an MCP
// server, a hook, a teammate. So a cgo build that runs with the
// capability in its bounding set drops it on its first thread and starts
// itself again from there, before anything else runs: the new image has
// one thread, and every thread it makes inherits the smaller set. ponder
// itself then lacks the capability too, which it does not need to watch
// its own children.

// ptraceInBoundingSet reports whether CAP_SYS_PTRACE is in the calling
// thread's bounding set.
func ptraceInBoundingSet() bool {
	v, err := unix.PrctlRetInt(unix.PR_CAPBSET_READ, unix.CAP_SYS_PTRACE, 0, 0, 0)
	return err == nil && v == 1
}

// restartWithoutPtrace is the start of a cgo build: it returns at once
// in a build without cgo, for a process that cannot change its bounding
// set, and once the capability is gone; otherwise it does not return.
func restartWithoutPtrace() {
	if !cgoBuild || !ptraceInBoundingSet() {
		return
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := unix.Prctl(unix.PR_CAPBSET_DROP, unix.CAP_SYS_PTRACE, 0, 0, 0); err != nil {
		return // not privileged: there is nothing to hand on
	}
	// Only reached as a privileged process; should exec fail, the
	// children's own drop (dropPtrace on each starting thread) remains.
	_ = syscall.Exec("/proc/self/exe", os.Args, os.Environ())
}

// BuildNote says, for ponder doctor, which build this is and how its
// children are kept from CAP_SYS_PTRACE.
func BuildNote() string {
	if cgoBuild {
		return "cgo build: ponder starts itself again without CAP_SYS_PTRACE in its bounding set, so no thread can hand it to a child"
	}
	return "pure Go build: CAP_SYS_PTRACE leaves the bounding set of every thread at start"
}
