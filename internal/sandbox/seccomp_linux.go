//go:build linux && (amd64 || arm64)

package sandbox

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// The seccomp filter covers what Landlock does not: changing file modes,
// owners, times, extended attributes and inode flags; raising the
// core-dump limit; reaching into other processes; mounting, namespaces,
// keys, BPF, kernel modules and other administration; System V IPC;
// sockets a reader does not need; ioctls other than queries; and every
// call it does not know (see seccomp_table_linux.go). A refused call
// fails with an errno rather than killing the command, so a reader that
// tries one by the way (say, a tool that sets a file's mode in its cache)
// reports an error and goes on.
//
// The filter is hand-assembled rather than built with a policy library
// because it must compare int arguments on their low 32 bits only (the
// kernel ignores the high half, so a 64-bit comparison can be passed by
// setting it) and must refuse every call made through another
// architecture's entry point (int 0x80 on x86-64).

// seccompSummary says what the filter refuses, for ponder doctor.
const seccompSummary = "seccomp: an allow-list of system calls (unknown ones fail with ENOSYS); no chmod/chown/utime/xattr or inode-flag changes, " +
	"ioctls other than queries, core-dump limit, ptrace, mounts, namespaces, keys, BPF, modules, io_uring, System V IPC; " +
	"a command allowed to fetch opens TCP only (no MPTCP, raw or Fast Open), and UDP only to look names up"

// filterOptions parametrise the filter.
type filterOptions struct {
	network bool
	// internet lets the command open TCP sockets over IPv4 and IPv6 (not
	// Unix ones, not MPTCP, not raw): the filter of a command whose
	// fetches the permission rules allowed, where Landlock limits TCP to
	// the ports those fetches name.
	internet bool
	// lookup also lets it open UDP sockets, to look up the names its
	// fetches connect to.
	lookup bool
	// ponder is ponder's own process id, which a confined command may
	// not signal.
	ponder int
	// abi is the Landlock ABI; below 3 Landlock cannot stop truncate.
	abi int
	// scopedSignals says Landlock keeps signals inside the sandbox.
	scopedSignals bool
	// workspace is the filter of a command that writes its workspace:
	// it may change the modes, owners (within what an unprivileged
	// process may) and times of files, which the read-only mounts keep
	// to the writable directories.
	workspace bool
}

// namespaceFlags are the clone flags that make new namespaces.
const namespaceFlags = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
	unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET

// sockTypeMask is SOCK_TYPE_MASK: the type argument of socket() also
// carries SOCK_NONBLOCK and SOCK_CLOEXEC, which the comparison ignores.
const sockTypeMask = 0xf

// filterRules lists the filter's rules: one for every call it knows.
func filterRules(o filterOptions) []rule {
	eperm := errnoRet(uint32(unix.EPERM))
	allow := uint32(retAllow)
	byNr := map[uint32]rule{}
	for _, nr := range allowedCalls {
		byNr[nr] = rule{nr: nr, otherwise: allow}
	}
	for _, nr := range deniedCalls {
		byNr[nr] = rule{nr: nr, otherwise: eperm}
	}
	if o.workspace {
		for _, nr := range metadataCalls {
			byNr[nr] = rule{nr: nr, otherwise: allow}
		}
	}
	eq := func(arg int, v uint32) cond { return cond{kind: lo32Eq, arg: arg, value: v} }
	ne := func(arg int, v uint32) cond { return cond{kind: lo32Ne, arg: arg, value: v} }
	set := func(arg int) cond { return cond{kind: nonZero64, arg: arg} }
	// deny refuses a call when any alternative holds; allowOnly lets it
	// through only when one does.
	deny := func(nr uint32, alts ...[]cond) { byNr[nr] = rule{nr: nr, alts: alts, ret: eperm, otherwise: allow} }
	allowOnly := func(nr uint32, alts ...[]cond) { byNr[nr] = rule{nr: nr, alts: alts, ret: allow, otherwise: eperm} }

	// Landlock stops truncation by path from ABI 3 on; below, the filter
	// does.
	truncate := allow
	if o.abi < 3 {
		truncate = eperm
	}
	byNr[unix.SYS_TRUNCATE] = rule{nr: unix.SYS_TRUNCATE, otherwise: truncate}
	pid := uint32(o.ponder)
	if !o.scopedSignals {
		// Without Landlock's signal scope, a command could signal one of
		// ponder's threads by id. With the scope this rule must not be
		// there: the filter also binds the thread that starts the
		// command, and Go's runtime on that thread preempts ponder's
		// other threads with tgkill.
		deny(unix.SYS_TGKILL, []cond{eq(0, pid)})
		deny(unix.SYS_RT_TGSIGQUEUEINFO, []cond{eq(0, pid)})
	} else {
		byNr[unix.SYS_TGKILL] = rule{nr: unix.SYS_TGKILL, otherwise: allow}
		byNr[unix.SYS_RT_TGSIGQUEUEINFO] = rule{nr: unix.SYS_RT_TGSIGQUEUEINFO, otherwise: allow}
	}
	// Signals to ponder, its process group, or every process.
	deny(unix.SYS_KILL, []cond{eq(0, pid)}, []cond{eq(0, -pid)}, []cond{eq(0, 0xffffffff)})
	deny(unix.SYS_RT_SIGQUEUEINFO, []cond{eq(0, pid)})
	deny(unix.SYS_PIDFD_OPEN, []cond{eq(0, pid)})
	// The core-dump limit stays where ponder put it (0): neither setrlimit
	// nor prlimit64 may change it, and prlimit64 may not change another
	// process's limits.
	deny(unix.SYS_SETRLIMIT, []cond{eq(0, unix.RLIMIT_CORE)})
	deny(unix.SYS_PRLIMIT64, []cond{eq(1, unix.RLIMIT_CORE), set(2)}, []cond{ne(0, 0), set(2)})
	// Scheduling and I/O priority: a command's own (pid 0, its own
	// process group), never another process's or a whole user's.
	for _, nr := range []uint32{unix.SYS_SCHED_SETAFFINITY, unix.SYS_SCHED_SETSCHEDULER, unix.SYS_SCHED_SETPARAM, unix.SYS_SCHED_SETATTR} {
		allowOnly(nr, []cond{eq(0, 0)})
	}
	allowOnly(unix.SYS_SETPRIORITY, []cond{eq(0, unix.PRIO_PROCESS), eq(1, 0)}, []cond{eq(0, unix.PRIO_PGRP), eq(1, 0)})
	const ioprioWhoProcess, ioprioWhoPgrp = 1, 2
	allowOnly(unix.SYS_IOPRIO_SET, []cond{eq(0, ioprioWhoProcess), eq(1, 0)}, []cond{eq(0, ioprioWhoPgrp), eq(1, 0)})
	// ioctl: the queries a reader makes, nothing else.
	var ioctls [][]cond
	for _, req := range allowedIoctls {
		ioctls = append(ioctls, []cond{eq(1, req)})
	}
	allowOnly(unix.SYS_IOCTL, ioctls...)
	// No new namespaces through clone; clone3 hides its flags in memory
	// the filter cannot read, so it reports "not implemented" and C
	// libraries fall back to clone.
	deny(unix.SYS_CLONE, []cond{{kind: lo32AnyBit, arg: 0, value: namespaceFlags}})
	byNr[unix.SYS_CLONE3] = rule{nr: unix.SYS_CLONE3, otherwise: errnoRet(uint32(unix.ENOSYS))}
	// Socket pairs are private to the command.
	allowOnly(unix.SYS_SOCKETPAIR, []cond{eq(0, unix.AF_UNIX)})
	allowOnly(unix.SYS_SOCKET, socketAlternatives(o)...)
	if !o.network {
		// TCP Fast Open connects inside sendto and sendmsg, past the
		// connect hook where Landlock checks the port: a command allowed
		// one port could reach any other that way.
		fastOpen := func(arg int) []cond { return []cond{{kind: lo32AnyBit, arg: arg, value: unix.MSG_FASTOPEN}} }
		deny(unix.SYS_SENDTO, fastOpen(3))
		deny(unix.SYS_SENDMSG, fastOpen(2))
		deny(unix.SYS_SENDMMSG, fastOpen(3))
	}

	rules := make([]rule, 0, len(byNr))
	for _, r := range byNr {
		rules = append(rules, r)
	}
	return rules
}

// socketAlternatives are the sockets a command may open. Netlink (which
// reads interface and routing state; changing it needs capabilities the
// command lacks) always. With the network setting, Unix, IPv4 and IPv6
// sockets of any kind. A command allowed to fetch gets TCP over IPv4 and
// IPv6 only, since Landlock limits TCP to the fetches' ports and nothing
// else: not MPTCP, SCTP or raw sockets, which Landlock does not see, and
// UDP only when a fetch names a host to look up. Every other family never.
func socketAlternatives(o filterOptions) [][]cond {
	eq := func(arg int, v uint32) cond { return cond{kind: lo32Eq, arg: arg, value: v} }
	kind := func(t uint32) cond { return cond{kind: lo32MaskEq, arg: 1, value: t, mask: sockTypeMask} }
	alts := [][]cond{{eq(0, unix.AF_NETLINK)}}
	switch {
	case o.network:
		for _, af := range []uint32{unix.AF_UNIX, unix.AF_INET, unix.AF_INET6} {
			alts = append(alts, []cond{eq(0, af)})
		}
	case o.internet:
		for _, af := range []uint32{unix.AF_INET, unix.AF_INET6} {
			alts = append(alts,
				[]cond{eq(0, af), kind(unix.SOCK_STREAM), eq(2, 0)},
				[]cond{eq(0, af), kind(unix.SOCK_STREAM), eq(2, unix.IPPROTO_TCP)})
			if o.lookup {
				alts = append(alts,
					[]cond{eq(0, af), kind(unix.SOCK_DGRAM), eq(2, 0)},
					[]cond{eq(0, af), kind(unix.SOCK_DGRAM), eq(2, unix.IPPROTO_UDP)})
			}
		}
	}
	return alts
}

// filterSet holds the filters a mechanism picks from, per command: one
// for commands without fetches, one for commands allowed to fetch from
// addresses alone, one for those that must also look a name up.
type filterSet struct {
	plain, fetch, lookup []unix.SockFilter
}

// metadataCalls change a file's mode, owner or times: refused to readers,
// let through for a command confined to its workspace, where mounts keep
// every file outside the writable directories read-only.
var metadataCalls = append([]uint32{
	unix.SYS_FCHMOD, unix.SYS_FCHMODAT, unix.SYS_FCHMODAT2,
	unix.SYS_FCHOWN, unix.SYS_FCHOWNAT, unix.SYS_UTIMENSAT,
}, archMetadata...)

// buildFilterSet assembles the three filters from the options they share.
func buildFilterSet(o filterOptions) (filterSet, error) {
	var s filterSet
	var err error
	if s.plain, err = buildFilter(o); err != nil {
		return s, err
	}
	o.internet = true
	if s.fetch, err = buildFilter(o); err != nil {
		return s, err
	}
	o.lookup = true
	s.lookup, err = buildFilter(o)
	return s, err
}

// pick returns the filter for a command confined as c says.
func (s filterSet) pick(c Confinement) []unix.SockFilter {
	switch {
	case len(c.Ports) == 0:
		return s.plain
	case c.Lookup:
		return s.lookup
	}
	return s.fetch
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
