//go:build linux && (amd64 || arm64)

package sandbox

import "golang.org/x/sys/unix"

// The filter is an allow-list: a confined command may make the calls
// below and no others. A call the list does not name, including every
// call added to Linux after this list was written, fails with ENOSYS, as
// on an older kernel, so C libraries and runtimes fall back to the older
// calls they already know. The list follows what ordinary programs
// (shells, git, compilers, interpreters) need, in the spirit of Docker's
// default profile, minus what a reader never needs and could use to
// change something outside the sandbox.

// allowedCalls run without a look at their arguments.
var allowedCalls = append([]uint32{
	// Reading and writing through descriptors. Landlock decides which
	// files may be opened for writing.
	unix.SYS_READ, unix.SYS_WRITE, unix.SYS_READV, unix.SYS_WRITEV,
	unix.SYS_PREAD64, unix.SYS_PWRITE64, unix.SYS_PREADV, unix.SYS_PWRITEV, unix.SYS_PREADV2, unix.SYS_PWRITEV2,
	unix.SYS_LSEEK, unix.SYS_CLOSE, unix.SYS_CLOSE_RANGE, unix.SYS_DUP, unix.SYS_DUP3, unix.SYS_PIPE2,
	unix.SYS_SENDFILE, unix.SYS_COPY_FILE_RANGE, unix.SYS_SPLICE, unix.SYS_TEE, unix.SYS_VMSPLICE,
	unix.SYS_FCNTL, unix.SYS_FLOCK, unix.SYS_FSYNC, unix.SYS_FDATASYNC, unix.SYS_SYNC, unix.SYS_SYNCFS,
	unix.SYS_SYNC_FILE_RANGE, unix.SYS_FADVISE64, unix.SYS_READAHEAD, unix.SYS_FALLOCATE, unix.SYS_FTRUNCATE,
	unix.SYS_IO_SETUP, unix.SYS_IO_DESTROY, unix.SYS_IO_SUBMIT, unix.SYS_IO_CANCEL, unix.SYS_IO_GETEVENTS,
	unix.SYS_IO_PGETEVENTS,
	// Paths: opening, looking, and the changes Landlock confines to the
	// scratch directory.
	unix.SYS_OPENAT, unix.SYS_OPENAT2, unix.SYS_FSTAT, unix.SYS_NEWFSTATAT, unix.SYS_STATX,
	unix.SYS_STATFS, unix.SYS_FSTATFS, unix.SYS_GETDENTS64, unix.SYS_READLINKAT, unix.SYS_FACCESSAT,
	unix.SYS_FACCESSAT2, unix.SYS_GETCWD, unix.SYS_CHDIR, unix.SYS_FCHDIR, unix.SYS_UMASK,
	unix.SYS_MKDIRAT, unix.SYS_MKNODAT, unix.SYS_UNLINKAT, unix.SYS_RENAMEAT, unix.SYS_RENAMEAT2,
	unix.SYS_LINKAT, unix.SYS_SYMLINKAT, unix.SYS_NAME_TO_HANDLE_AT,
	unix.SYS_GETXATTR, unix.SYS_LGETXATTR, unix.SYS_FGETXATTR, unix.SYS_GETXATTRAT,
	unix.SYS_LISTXATTR, unix.SYS_LLISTXATTR, unix.SYS_FLISTXATTR, unix.SYS_LISTXATTRAT,
	unix.SYS_FILE_GETATTR, unix.SYS_STATMOUNT, unix.SYS_LISTMOUNT, unix.SYS_CACHESTAT,
	unix.SYS_INOTIFY_INIT1, unix.SYS_INOTIFY_ADD_WATCH, unix.SYS_INOTIFY_RM_WATCH,
	// Memory.
	unix.SYS_BRK, unix.SYS_MMAP, unix.SYS_MUNMAP, unix.SYS_MREMAP, unix.SYS_MPROTECT, unix.SYS_MSYNC,
	unix.SYS_MADVISE, unix.SYS_MINCORE, unix.SYS_MLOCK, unix.SYS_MLOCK2, unix.SYS_MUNLOCK,
	unix.SYS_MLOCKALL, unix.SYS_MUNLOCKALL, unix.SYS_REMAP_FILE_PAGES, unix.SYS_MEMFD_CREATE,
	unix.SYS_MEMFD_SECRET, unix.SYS_PKEY_ALLOC, unix.SYS_PKEY_FREE, unix.SYS_PKEY_MPROTECT,
	unix.SYS_MBIND, unix.SYS_GET_MEMPOLICY, unix.SYS_SET_MEMPOLICY, unix.SYS_SET_MEMPOLICY_HOME_NODE,
	unix.SYS_MEMBARRIER, unix.SYS_MSEAL, unix.SYS_MAP_SHADOW_STACK,
	// Processes and threads (clone has a rule of its own).
	unix.SYS_EXECVE, unix.SYS_EXECVEAT, unix.SYS_EXIT, unix.SYS_EXIT_GROUP, unix.SYS_WAIT4, unix.SYS_WAITID,
	unix.SYS_GETPID, unix.SYS_GETPPID, unix.SYS_GETTID, unix.SYS_SET_TID_ADDRESS,
	unix.SYS_SET_ROBUST_LIST, unix.SYS_GET_ROBUST_LIST, unix.SYS_FUTEX, unix.SYS_FUTEX_WAITV,
	unix.SYS_FUTEX_WAKE, unix.SYS_FUTEX_WAIT, unix.SYS_FUTEX_REQUEUE, unix.SYS_RSEQ,
	unix.SYS_SCHED_YIELD, unix.SYS_SCHED_GETAFFINITY, unix.SYS_SCHED_GETPARAM, unix.SYS_SCHED_GETSCHEDULER,
	unix.SYS_SCHED_GETATTR, unix.SYS_SCHED_GET_PRIORITY_MAX, unix.SYS_SCHED_GET_PRIORITY_MIN,
	unix.SYS_SCHED_RR_GET_INTERVAL, unix.SYS_GETPRIORITY, unix.SYS_IOPRIO_GET,
	unix.SYS_PRCTL, unix.SYS_PERSONALITY, unix.SYS_CAPGET, unix.SYS_CAPSET,
	unix.SYS_GETUID, unix.SYS_GETEUID, unix.SYS_GETGID, unix.SYS_GETEGID, unix.SYS_GETRESUID,
	unix.SYS_GETRESGID, unix.SYS_GETGROUPS, unix.SYS_SETUID, unix.SYS_SETGID, unix.SYS_SETREUID,
	unix.SYS_SETREGID, unix.SYS_SETRESUID, unix.SYS_SETRESGID, unix.SYS_SETFSUID, unix.SYS_SETFSGID,
	unix.SYS_SETGROUPS, unix.SYS_GETPGID, unix.SYS_SETPGID, unix.SYS_GETSID, unix.SYS_SETSID,
	unix.SYS_GETRLIMIT, unix.SYS_GETRUSAGE, unix.SYS_TIMES, unix.SYS_UNAME, unix.SYS_SYSINFO,
	unix.SYS_GETCPU, unix.SYS_GETRANDOM, unix.SYS_RESTART_SYSCALL, unix.SYS_PIDFD_SEND_SIGNAL,
	unix.SYS_SECCOMP, unix.SYS_LANDLOCK_CREATE_RULESET, unix.SYS_LANDLOCK_ADD_RULE,
	unix.SYS_LANDLOCK_RESTRICT_SELF, unix.SYS_LSM_GET_SELF_ATTR, unix.SYS_LSM_LIST_MODULES,
	// Signals (kill and friends have rules of their own).
	unix.SYS_RT_SIGACTION, unix.SYS_RT_SIGPROCMASK, unix.SYS_RT_SIGRETURN, unix.SYS_RT_SIGPENDING,
	unix.SYS_RT_SIGTIMEDWAIT, unix.SYS_RT_SIGSUSPEND, unix.SYS_SIGALTSTACK, unix.SYS_SIGNALFD4,
	// Time.
	unix.SYS_CLOCK_GETTIME, unix.SYS_CLOCK_GETRES, unix.SYS_CLOCK_NANOSLEEP, unix.SYS_NANOSLEEP,
	unix.SYS_GETTIMEOFDAY, unix.SYS_GETITIMER, unix.SYS_SETITIMER, unix.SYS_TIMER_CREATE,
	unix.SYS_TIMER_SETTIME, unix.SYS_TIMER_GETTIME, unix.SYS_TIMER_GETOVERRUN, unix.SYS_TIMER_DELETE,
	unix.SYS_TIMERFD_CREATE, unix.SYS_TIMERFD_SETTIME, unix.SYS_TIMERFD_GETTIME,
	// Waiting for events.
	unix.SYS_EPOLL_CREATE1, unix.SYS_EPOLL_CTL, unix.SYS_EPOLL_PWAIT, unix.SYS_EPOLL_PWAIT2,
	unix.SYS_PPOLL, unix.SYS_PSELECT6, unix.SYS_EVENTFD2,
	// Sockets once made (socket and socketpair have rules of their own;
	// Landlock decides where TCP may connect).
	unix.SYS_CONNECT, unix.SYS_ACCEPT, unix.SYS_ACCEPT4, unix.SYS_BIND, unix.SYS_LISTEN,
	unix.SYS_GETSOCKNAME, unix.SYS_GETPEERNAME, unix.SYS_GETSOCKOPT, unix.SYS_SETSOCKOPT,
	unix.SYS_SHUTDOWN, unix.SYS_SENDTO, unix.SYS_RECVFROM, unix.SYS_SENDMSG, unix.SYS_RECVMSG,
	unix.SYS_SENDMMSG, unix.SYS_RECVMMSG,
}, archAllowed...)

// deniedCalls fail with EPERM, whatever their arguments: they change
// something outside the command (a file's mode, owner, times, attributes
// or inode flags; other processes; mounts and namespaces; the kernel's
// keys, modules, clocks and logs; objects of System V and POSIX IPC,
// which outlive the command and belong to other programs too), or reach
// past this filter (io_uring).
var deniedCalls = append([]uint32{
	// File modes, owners, times, extended attributes, inode flags.
	unix.SYS_FCHMOD, unix.SYS_FCHMODAT, unix.SYS_FCHMODAT2,
	unix.SYS_FCHOWN, unix.SYS_FCHOWNAT,
	unix.SYS_UTIMENSAT,
	unix.SYS_SETXATTR, unix.SYS_LSETXATTR, unix.SYS_FSETXATTR, unix.SYS_SETXATTRAT,
	unix.SYS_REMOVEXATTR, unix.SYS_LREMOVEXATTR, unix.SYS_FREMOVEXATTR, unix.SYS_REMOVEXATTRAT,
	unix.SYS_FILE_SETATTR,
	// Other processes' memory and files.
	unix.SYS_PTRACE, unix.SYS_PROCESS_VM_WRITEV, unix.SYS_PROCESS_VM_READV, unix.SYS_PIDFD_GETFD,
	// An obsolete way to signal any thread by id, ponder's included.
	unix.SYS_TKILL,
	// Mounts, namespaces, the root directory.
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_MOVE_MOUNT,
	unix.SYS_FSOPEN, unix.SYS_FSCONFIG, unix.SYS_FSMOUNT, unix.SYS_FSPICK,
	unix.SYS_OPEN_TREE, unix.SYS_OPEN_TREE_ATTR, unix.SYS_MOUNT_SETATTR, unix.SYS_CHROOT,
	unix.SYS_UNSHARE, unix.SYS_SETNS,
	// Keys, BPF, modules, kexec, reboot, swap, the kernel log.
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY, unix.SYS_BPF,
	unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE,
	unix.SYS_KEXEC_LOAD, unix.SYS_KEXEC_FILE_LOAD, unix.SYS_REBOOT,
	unix.SYS_SWAPON, unix.SYS_SWAPOFF, unix.SYS_SYSLOG, unix.SYS_VHANGUP,
	// Clocks, names, accounting, quotas.
	unix.SYS_SETTIMEOFDAY, unix.SYS_CLOCK_SETTIME, unix.SYS_CLOCK_ADJTIME, unix.SYS_ADJTIMEX,
	unix.SYS_SETHOSTNAME, unix.SYS_SETDOMAINNAME, unix.SYS_ACCT,
	unix.SYS_QUOTACTL, unix.SYS_QUOTACTL_FD,
	// Files by handle, page-fault handling, io_uring (which would run
	// calls past this filter), performance counters.
	unix.SYS_OPEN_BY_HANDLE_AT, unix.SYS_USERFAULTFD,
	unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
	unix.SYS_PERF_EVENT_OPEN,
	// System V IPC and POSIX message queues: their objects live in the
	// kernel, not in the sandbox, and outlive the command.
	unix.SYS_MSGGET, unix.SYS_MSGSND, unix.SYS_MSGRCV, unix.SYS_MSGCTL,
	unix.SYS_SEMGET, unix.SYS_SEMOP, unix.SYS_SEMTIMEDOP, unix.SYS_SEMCTL,
	unix.SYS_SHMGET, unix.SYS_SHMAT, unix.SYS_SHMDT, unix.SYS_SHMCTL,
	unix.SYS_MQ_OPEN, unix.SYS_MQ_UNLINK, unix.SYS_MQ_TIMEDSEND, unix.SYS_MQ_TIMEDRECEIVE,
	unix.SYS_MQ_NOTIFY, unix.SYS_MQ_GETSETATTR,
}, archDenied...)

// ioctl requests that only this package names: golang.org/x/sys does not
// define them. Their values are the same on amd64 and arm64.
const (
	ioFIONREAD       = 0x541b
	ioFIONBIO        = 0x5421
	ioFIONCLEX       = 0x5450
	ioFIOCLEX        = 0x5451
	ioFIOASYNC       = 0x5452
	ioFIOQSIZE       = 0x5460
	ioFIGETBSZ       = 0x2
	ioGetVersion     = 0x80087601 // FS_IOC_GETVERSION
	ioSetVersion     = 0x40087602 // FS_IOC_SETVERSION
	ioFsGetXattr     = 0x801c581f // FS_IOC_FSGETXATTR
	ioFsSetXattr     = 0x401c5820 // FS_IOC_FSSETXATTR
	ioFiemap         = 0xc020660b // FS_IOC_FIEMAP
	ioGetFsLabel     = 0x81009431 // FS_IOC_GETFSLABEL
	ioGetFsUUID      = 0x80111500 // FS_IOC_GETFSUUID
	ioGetFsSysfsPath = 0x80811501 // FS_IOC_GETFSSYSFSPATH
)

// allowedIoctls are the ioctl requests a confined command may make: they
// read what a reader asks of a descriptor (is it a terminal, how wide,
// how much is waiting, which flags and extents a file has, which network
// interfaces exist) or change only the descriptor itself (close-on-exec,
// non-blocking, async). FICLONE and FICLONERANGE write only to a file
// opened for writing, which Landlock keeps to the scratch directory.
// Every other request fails with EPERM, whatever it does: setting inode
// flags (chattr), a file's generation, project ids, terminal modes or
// input, or anything a driver adds later.
var allowedIoctls = []uint32{
	// Terminals: queries only.
	unix.TCGETS, unix.TCGETS2, unix.TCGETA, unix.TIOCGWINSZ, unix.TIOCGPGRP, unix.TIOCGSID,
	unix.TIOCOUTQ, unix.TIOCGETD, unix.TIOCGLCKTRMIOS,
	// Descriptors.
	ioFIONREAD, ioFIONBIO, ioFIOCLEX, ioFIONCLEX, ioFIOASYNC, ioFIOQSIZE,
	// Files: queries, and clones into a file open for writing.
	unix.FS_IOC_GETFLAGS, ioGetVersion, ioFsGetXattr, ioFiemap, ioFIGETBSZ,
	ioGetFsLabel, ioGetFsUUID, ioGetFsSysfsPath, unix.FICLONE, unix.FICLONERANGE,
	unix.RNDGETENTCNT,
	// Network interfaces and sockets: queries.
	unix.SIOCGIFCONF, unix.SIOCGIFFLAGS, unix.SIOCGIFADDR, unix.SIOCGIFDSTADDR, unix.SIOCGIFBRDADDR,
	unix.SIOCGIFNETMASK, unix.SIOCGIFMETRIC, unix.SIOCGIFMTU, unix.SIOCGIFHWADDR, unix.SIOCGIFINDEX,
	unix.SIOCGIFNAME, unix.SIOCGIFTXQLEN, unix.SIOCATMARK,
}
