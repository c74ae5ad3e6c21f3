//go:build linux

package sandbox

import "golang.org/x/sys/unix"

// filterArch is the audit architecture of native calls.
const filterArch = unix.AUDIT_ARCH_X86_64

// filterFirstBad is the first call number of the x32 ABI, which shares the
// architecture value with x86-64 and is refused as a whole.
const filterFirstBad = 0x40000000

// archAllowed are the calls of allowedCalls that only this architecture
// has: the old forms of calls the generic list names by their newer ones,
// and the uprobe trampolines, which the kernel itself calls into a
// program's code when a probe is set (refusing them would crash it).
var archAllowed = []uint32{
	unix.SYS_OPEN, unix.SYS_CREAT, unix.SYS_STAT, unix.SYS_LSTAT, unix.SYS_ACCESS, unix.SYS_READLINK,
	unix.SYS_GETDENTS, unix.SYS_MKDIR, unix.SYS_RMDIR, unix.SYS_UNLINK, unix.SYS_RENAME, unix.SYS_LINK,
	unix.SYS_SYMLINK, unix.SYS_MKNOD, unix.SYS_PIPE, unix.SYS_DUP2, unix.SYS_POLL, unix.SYS_SELECT,
	unix.SYS_EPOLL_CREATE, unix.SYS_EPOLL_WAIT, unix.SYS_EVENTFD, unix.SYS_SIGNALFD, unix.SYS_INOTIFY_INIT,
	unix.SYS_FORK, unix.SYS_VFORK, unix.SYS_PAUSE, unix.SYS_ALARM, unix.SYS_TIME, unix.SYS_GETPGRP,
	unix.SYS_ARCH_PRCTL, unix.SYS_URETPROBE, unix.SYS_UPROBE,
}

// archDenied are the calls of deniedCalls that only this architecture
// has: the old forms of chmod, chown and utime, and port I/O.
var archDenied = []uint32{
	unix.SYS_CHMOD, unix.SYS_CHOWN, unix.SYS_LCHOWN,
	unix.SYS_UTIME, unix.SYS_UTIMES, unix.SYS_FUTIMESAT,
	unix.SYS_IOPL, unix.SYS_IOPERM,
}

// archMetadata are the calls of archDenied a command confined to its
// workspace may make: the old forms of chmod, chown and utime.
var archMetadata = []uint32{
	unix.SYS_CHMOD, unix.SYS_CHOWN, unix.SYS_LCHOWN,
	unix.SYS_UTIME, unix.SYS_UTIMES, unix.SYS_FUTIMESAT,
}
