//go:build linux

package sandbox

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// notDumpable makes ponder's /proc entries root's and refuses ptrace from
// processes without CAP_SYS_PTRACE. Children are dumpable again after
// exec, as usual.
func notDumpable() error { return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0) }

// noPtraceForChildren takes CAP_SYS_PTRACE out of the bounding set of
// every thread of ponder, so that no program ponder starts (a command, an
// MCP server, a hook, a teammate) can read ponder's memory, where its
// credentials are, even as root. ponder keeps the capability itself.
// Without the right to change the bounding set (not root), children have
// no such capability to lose; a build with cgo cannot act on every
// thread, and commands still lose it where they start.
func noPtraceForChildren() {
	_, _, _ = syscall.AllThreadsSyscall(syscall.SYS_PRCTL, unix.PR_CAPBSET_DROP, unix.CAP_SYS_PTRACE, 0)
}
