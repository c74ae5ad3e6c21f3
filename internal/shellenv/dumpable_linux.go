package shellenv

import "syscall"

// keepMemoryPrivate marks the process as not dumpable: other processes of
// the same user may then neither read its memory (/proc/PID/mem, a
// debugger) nor its /proc environment, where the credentials live while
// it runs. Only a privileged user still can. Commands ponder starts are
// unaffected: the mark does not pass through exec.
func keepMemoryPrivate() {
	const prSetDumpable = 4
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetDumpable, 0, 0)
}
