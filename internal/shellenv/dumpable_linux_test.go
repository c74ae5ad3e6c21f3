package shellenv

import "syscall"

// dumpable reads the process's dumpable mark.
func dumpable() int {
	const prGetDumpable = 3
	r, _, _ := syscall.RawSyscall(syscall.SYS_PRCTL, prGetDumpable, 0, 0)
	return int(r)
}
