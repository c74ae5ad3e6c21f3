//go:build linux && (amd64 || arm64)

package sandbox

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// The seccomp filter covers what Landlock does not: changing file modes,
// owners, times and extended attributes; raising the core-dump limit;
// reaching into other processes; mounting, namespaces, keys, BPF, kernel
// modules and other administration; sockets a reader does not need; and
// pushing input into a terminal. Each such call fails with EPERM rather
// than killing the command, so a reader that tries one by the way (say, a
// tool that sets a file's mode in its cache) reports an error and goes on.
//
// The filter is hand-assembled rather than built with a policy library
// because it must compare int arguments on their low 32 bits only (the
// kernel ignores the high half, so a 64-bit comparison can be passed by
// setting it) and must refuse every call made through another
// architecture's entry point (int 0x80 on x86-64), which the libraries'
// deny lists let through to their default action.

// filterOptions parametrise the filter.
type filterOptions struct {
	network bool
	// internet lets the command open IPv4 and IPv6 sockets (not Unix
	// ones): the filter of a command whose fetches the permission rules
	// allowed, where Landlock limits TCP to the ports those fetches name.
	internet bool
	// ponder is ponder's own process id, which a confined command may
	// not signal.
	ponder int
	// abi is the Landlock ABI; below 3 Landlock cannot stop truncate.
	abi int
	// scopedSignals says Landlock keeps signals inside the sandbox.
	scopedSignals bool
}

// namespaceFlags are the clone flags that make new namespaces.
const namespaceFlags = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
	unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET

// deniedAlways are refused whatever their arguments.
var deniedAlways = append([]uint32{
	// File modes, owners, times, extended attributes.
	unix.SYS_FCHMOD, unix.SYS_FCHMODAT, unix.SYS_FCHMODAT2,
	unix.SYS_FCHOWN, unix.SYS_FCHOWNAT,
	unix.SYS_UTIMENSAT,
	unix.SYS_SETXATTR, unix.SYS_LSETXATTR, unix.SYS_FSETXATTR, unix.SYS_SETXATTRAT,
	unix.SYS_REMOVEXATTR, unix.SYS_LREMOVEXATTR, unix.SYS_FREMOVEXATTR, unix.SYS_REMOVEXATTRAT,
	// Other processes' memory and files.
	unix.SYS_PTRACE, unix.SYS_PROCESS_VM_WRITEV, unix.SYS_PROCESS_VM_READV, unix.SYS_PIDFD_GETFD,
	// An obsolete way to signal any thread by id, ponder's included.
	unix.SYS_TKILL,
	// Mounts, namespaces, the root directory.
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_MOVE_MOUNT,
	unix.SYS_FSOPEN, unix.SYS_FSCONFIG, unix.SYS_FSMOUNT, unix.SYS_FSPICK,
	unix.SYS_OPEN_TREE, unix.SYS_OPEN_TREE_ATTR, unix.SYS_MOUNT_SETATTR, unix.SYS_CHROOT,
	unix.SYS_UNSHARE, unix.SYS_SETNS,
	// Keys, BPF, modules, kexec, reboot, swap.
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY, unix.SYS_BPF,
	unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE,
	unix.SYS_KEXEC_LOAD, unix.SYS_KEXEC_FILE_LOAD, unix.SYS_REBOOT,
	unix.SYS_SWAPON, unix.SYS_SWAPOFF,
	// Clocks, names, accounting, quotas.
	unix.SYS_SETTIMEOFDAY, unix.SYS_CLOCK_SETTIME, unix.SYS_CLOCK_ADJTIME, unix.SYS_ADJTIMEX,
	unix.SYS_SETHOSTNAME, unix.SYS_SETDOMAINNAME, unix.SYS_ACCT,
	unix.SYS_QUOTACTL, unix.SYS_QUOTACTL_FD,
	// Files by handle, page-fault handling, io_uring (which would run
	// calls past this filter), performance counters.
	unix.SYS_OPEN_BY_HANDLE_AT, unix.SYS_USERFAULTFD,
	unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
	unix.SYS_PERF_EVENT_OPEN,
}, archDenied...)

// filterRules lists the filter's rules.
func filterRules(o filterOptions) []rule {
	eperm := uint32(retErrno | uint32(unix.EPERM))
	var rules []rule
	for _, nr := range deniedAlways {
		rules = append(rules, rule{nr: nr, ret: eperm})
	}
	if o.abi < 3 {
		rules = append(rules, rule{nr: unix.SYS_TRUNCATE, ret: eperm})
	}
	if !o.scopedSignals {
		// Without Landlock's signal scope, a command could signal one of
		// ponder's threads by id. With the scope this rule must not be
		// there: the filter also binds the thread that starts the
		// command, and Go's runtime on that thread preempts ponder's
		// other threads with tgkill.
		pid := uint32(o.ponder)
		rules = append(rules,
			rule{nr: unix.SYS_TGKILL, alts: [][]cond{{{kind: lo32Eq, arg: 0, value: pid}}}, ret: eperm},
			rule{nr: unix.SYS_RT_TGSIGQUEUEINFO, alts: [][]cond{{{kind: lo32Eq, arg: 0, value: pid}}}, ret: eperm})
	}
	eq := func(arg int, v uint32) cond { return cond{kind: lo32Eq, arg: arg, value: v} }
	ne := func(arg int, v uint32) cond { return cond{kind: lo32Ne, arg: arg, value: v} }
	set := func(arg int) cond { return cond{kind: nonZero64, arg: arg} }
	pid := uint32(o.ponder)
	rules = append(rules,
		// The core-dump limit stays where ponder put it (0): neither
		// setrlimit nor prlimit64 may change it, and prlimit64 may not
		// change another process's limits.
		rule{nr: unix.SYS_SETRLIMIT, alts: [][]cond{{eq(0, unix.RLIMIT_CORE)}}, ret: eperm},
		rule{nr: unix.SYS_PRLIMIT64, alts: [][]cond{{eq(1, unix.RLIMIT_CORE), set(2)}, {ne(0, 0), set(2)}}, ret: eperm},
		// No input pushed into a terminal, no console tricks.
		rule{nr: unix.SYS_IOCTL, alts: [][]cond{{eq(1, unix.TIOCSTI)}, {eq(1, unix.TIOCLINUX)}}, ret: eperm},
		// No new namespaces through clone; clone3 hides its flags in
		// memory the filter cannot read, so it reports "not
		// implemented" and C libraries fall back to clone.
		rule{nr: unix.SYS_CLONE, alts: [][]cond{{{kind: lo32AnyBit, arg: 0, value: namespaceFlags}}}, ret: eperm},
		rule{nr: unix.SYS_CLONE3, ret: retErrno | uint32(unix.ENOSYS)},
		// Signals to ponder, its process group, or every process.
		rule{nr: unix.SYS_KILL, alts: [][]cond{{eq(0, pid)}, {eq(0, -pid)}, {eq(0, 0xffffffff)}}, ret: eperm},
		rule{nr: unix.SYS_RT_SIGQUEUEINFO, alts: [][]cond{{eq(0, pid)}}, ret: eperm},
		rule{nr: unix.SYS_PIDFD_OPEN, alts: [][]cond{{eq(0, pid)}}, ret: eperm},
		// Socket pairs are private to the command.
		rule{nr: unix.SYS_SOCKETPAIR, alts: [][]cond{{ne(0, unix.AF_UNIX)}}, ret: eperm},
	)
	// Sockets: netlink (which reads interface and routing state; changing
	// it needs capabilities the command lacks) always; Unix, IPv4 and IPv6
	// only with the network setting; every other family never.
	allowed := []uint32{unix.AF_NETLINK}
	switch {
	case o.network:
		allowed = append(allowed, unix.AF_UNIX, unix.AF_INET, unix.AF_INET6)
	case o.internet:
		allowed = append(allowed, unix.AF_INET, unix.AF_INET6)
	}
	var others []cond
	for _, af := range allowed {
		others = append(others, ne(0, af))
	}
	rules = append(rules, rule{nr: unix.SYS_SOCKET, alts: [][]cond{others}, ret: eperm})
	return rules
}

// buildFilter assembles the filter for this machine.
func buildFilter(o filterOptions) ([]unix.SockFilter, error) {
	code, err := compile(filterArch, filterFirstBad, filterRules(o))
	if err != nil {
		return nil, err
	}
	out := make([]unix.SockFilter, len(code))
	for i, c := range code {
		out[i] = unix.SockFilter{Code: c.Code, Jt: c.Jt, Jf: c.Jf, K: c.K}
	}
	return out, nil
}

// installFilter loads the filter on the calling thread only (no TSYNC).
// no_new_privs must be set on the thread first.
func installFilter(filter []unix.SockFilter) error {
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	_, _, errno := unix.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&prog)))
	if errno != 0 {
		return errno
	}
	return nil
}

// filterBytes is the filter as bubblewrap's --seccomp reads it: the raw
// struct sock_filter array.
func filterBytes(filter []unix.SockFilter) []byte {
	if len(filter) == 0 {
		return nil
	}
	n := len(filter) * int(unsafe.Sizeof(filter[0]))
	return append([]byte(nil), unsafe.Slice((*byte)(unsafe.Pointer(&filter[0])), n)...)
}
