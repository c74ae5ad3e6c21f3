//go:build linux

package sandbox

import "golang.org/x/sys/unix"

// filterArch is the audit architecture of native calls.
const filterArch = unix.AUDIT_ARCH_X86_64

// filterFirstBad is the first call number of the x32 ABI, which shares the
// architecture value with x86-64 and is refused as a whole.
const filterFirstBad = 0x40000000

// archDenied are the calls of deniedAlways that only this architecture
// has: the old forms of chmod, chown and utime, and port I/O.
var archDenied = []uint32{
	unix.SYS_CHMOD, unix.SYS_CHOWN, unix.SYS_LCHOWN,
	unix.SYS_UTIME, unix.SYS_UTIMES, unix.SYS_FUTIMESAT,
	unix.SYS_IOPL, unix.SYS_IOPERM,
}
