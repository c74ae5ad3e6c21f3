//go:build unix

package sandbox

import "syscall"

// HardenProcess prepares ponder's own process at start: no core dumps (a
// crashing command would otherwise be able to drop one into the project;
// confined commands cannot raise the limit again), and on Linux no other
// process of the same user may read ponder's memory, environment or open
// files through /proc or ptrace once it drops capabilities.
func HardenProcess() error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_CORE, &lim); err != nil {
		return err
	}
	lim.Cur = 0
	if err := syscall.Setrlimit(syscall.RLIMIT_CORE, &lim); err != nil {
		return err
	}
	noPtraceForChildren()
	return notDumpable()
}
