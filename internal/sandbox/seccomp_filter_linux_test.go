//go:build linux && (amd64 || arm64)

package sandbox

import (
	"slices"
	"testing"

	"golang.org/x/sys/unix"
)

// filterProgram assembles the real filter with these options, as insns.
func filterProgram(t *testing.T, o filterOptions) []insn {
	t.Helper()
	f, err := buildFilter(o)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]insn, len(f))
	for i, in := range f {
		out[i] = insn{Code: in.Code, Jt: in.Jt, Jf: in.Jf, K: in.K}
	}
	return out
}

func call(nr uint32, args ...uint64) seccompData {
	d := seccompData{nr: nr, arch: filterArch}
	copy(d.args[:], args)
	return d
}

var (
	allowed = uint32(retAllow)
	eperm   = errnoRet(uint32(unix.EPERM))
	enosys  = errnoRet(uint32(unix.ENOSYS))
)

// The filter is an allow-list: every call number it does not name fails
// with ENOSYS, including every number above the newest call it knows (the
// file_setattr of Linux 6.17 is refused by name, the calls after it by
// not being named), the x32 numbers and calls of another architecture.
func TestFilterIsAnAllowList(t *testing.T) {
	prog := filterProgram(t, filterOptions{ponder: 4242, abi: 7, scopedSignals: true})
	known := map[uint32]bool{}
	for _, r := range filterRules(filterOptions{ponder: 4242, abi: 7, scopedSignals: true}) {
		known[r.nr] = true
	}
	for nr := range uint32(2048) {
		got := runBPF(t, prog, call(nr))
		if !known[nr] && got != enosys {
			t.Errorf("call %d, which the filter does not know, returns %#x", nr, got)
		}
	}
	for _, nr := range deniedCalls {
		if got := runBPF(t, prog, call(nr)); got != eperm {
			t.Errorf("denied call %d returns %#x", nr, got)
		}
	}
	for _, nr := range allowedCalls {
		if got := runBPF(t, prog, call(nr)); got != allowed {
			t.Errorf("allowed call %d returns %#x", nr, got)
		}
		if slices.Contains(deniedCalls, nr) {
			t.Errorf("call %d is both allowed and denied", nr)
		}
	}
	for _, nr := range []uint32{unix.SYS_FILE_SETATTR, unix.SYS_MSGGET, unix.SYS_SEMCTL, unix.SYS_SHMAT, unix.SYS_MQ_OPEN, unix.SYS_SYSLOG} {
		if got := runBPF(t, prog, call(nr)); got != eperm {
			t.Errorf("call %d returns %#x, want EPERM", nr, got)
		}
	}
	// Newer than anything the filter knows.
	for _, nr := range []uint32{unix.SYS_LISTNS, unix.SYS_RSEQ_SLICE_YIELD, 472, 500, 1000} {
		if got := runBPF(t, prog, call(nr)); got != enosys {
			t.Errorf("call %d returns %#x, want ENOSYS", nr, got)
		}
	}
	foreign := call(unix.SYS_GETPID)
	foreign.arch = unix.AUDIT_ARCH_I386
	if got := runBPF(t, prog, foreign); got != eperm {
		t.Errorf("a call of another architecture returns %#x", got)
	}
	if filterFirstBad != 0 {
		if got := runBPF(t, prog, call(filterFirstBad|unix.SYS_GETPID)); got != enosys {
			t.Errorf("an x32 call returns %#x", got)
		}
	}
}

// ioctl is an allow-list too: queries pass, and every request that sets
// something fails, whatever the high half of the register holds.
func TestFilterIoctls(t *testing.T) {
	prog := filterProgram(t, filterOptions{ponder: 4242, abi: 7})
	for _, req := range allowedIoctls {
		if got := runBPF(t, prog, call(unix.SYS_IOCTL, 1, uint64(req))); got != allowed {
			t.Errorf("ioctl %#x returns %#x", req, got)
		}
		if got := runBPF(t, prog, call(unix.SYS_IOCTL, 1, uint64(req)|0xdead<<32)); got != allowed {
			t.Errorf("ioctl %#x with high bits returns %#x", req, got)
		}
	}
	for name, req := range map[string]uint64{
		"FS_IOC_SETFLAGS": unix.FS_IOC_SETFLAGS, "FS_IOC_SETVERSION": ioSetVersion, "FS_IOC_FSSETXATTR": ioFsSetXattr,
		"TIOCSTI": unix.TIOCSTI, "TIOCLINUX": unix.TIOCLINUX, "TCSETS": unix.TCSETS, "TIOCSWINSZ": unix.TIOCSWINSZ,
		"FIDEDUPERANGE": unix.FIDEDUPERANGE, "TIOCSPGRP": unix.TIOCSPGRP, "unknown": 0xc0de1234,
		"TIOCSTI, high bits": unix.TIOCSTI | 1<<40,
	} {
		if got := runBPF(t, prog, call(unix.SYS_IOCTL, 1, req)); got != eperm {
			t.Errorf("ioctl %s returns %#x", name, got)
		}
	}
}

// Which sockets a command may open: netlink always; with the network
// setting anything of IPv4, IPv6 and Unix; allowed to fetch, only TCP,
// and UDP only when a name must be looked up; never MPTCP, SCTP, raw or
// packet sockets. The flags that may ride along in the type argument
// change nothing.
func TestFilterSockets(t *testing.T) {
	const mptcp, sctp = 262, 132
	stream, dgram, raw := uint64(unix.SOCK_STREAM), uint64(unix.SOCK_DGRAM), uint64(unix.SOCK_RAW)
	flags := uint64(unix.SOCK_NONBLOCK | unix.SOCK_CLOEXEC)
	type sock struct{ af, typ, proto uint64 }
	tcp4, tcp6, tcpExplicit := sock{unix.AF_INET, stream, 0}, sock{unix.AF_INET6, stream | flags, 0}, sock{unix.AF_INET, stream, unix.IPPROTO_TCP}
	udp4, udp6 := sock{unix.AF_INET, dgram | flags, 0}, sock{unix.AF_INET6, dgram, unix.IPPROTO_UDP}
	never := []sock{
		{unix.AF_INET, stream, mptcp}, {unix.AF_INET6, stream | flags, mptcp}, {unix.AF_INET, stream, sctp},
		{unix.AF_INET, raw, unix.IPPROTO_ICMP}, {unix.AF_INET, dgram, unix.IPPROTO_ICMP}, {unix.AF_PACKET, raw, 0},
		{unix.AF_INET, unix.SOCK_SEQPACKET, 0}, {unix.AF_VSOCK, stream, 0}, {unix.AF_UNIX, stream, 0},
		{unix.AF_INET | 1<<32, stream, mptcp}, {unix.AF_INET, stream, mptcp | 1<<32},
	}
	for _, tc := range []struct {
		name     string
		o        filterOptions
		ok, fail []sock
	}{
		{"no network", filterOptions{}, []sock{{unix.AF_NETLINK, raw, 0}}, append([]sock{tcp4, udp4}, never...)},
		{"fetch by address", filterOptions{internet: true}, []sock{tcp4, tcp6, tcpExplicit, {unix.AF_NETLINK, raw, 0}}, append([]sock{udp4, udp6}, never...)},
		{"fetch by name", filterOptions{internet: true, lookup: true}, []sock{tcp4, tcp6, tcpExplicit, udp4, udp6}, never},
		{"network setting", filterOptions{network: true}, []sock{tcp4, udp4, {unix.AF_INET, stream, mptcp}, {unix.AF_UNIX, stream, 0}}, []sock{{unix.AF_PACKET, raw, 0}}},
	} {
		prog := filterProgram(t, tc.o)
		for _, s := range tc.ok {
			if got := runBPF(t, prog, call(unix.SYS_SOCKET, s.af, s.typ, s.proto)); got != allowed {
				t.Errorf("%s: socket%v returns %#x", tc.name, s, got)
			}
		}
		for _, s := range tc.fail {
			if got := runBPF(t, prog, call(unix.SYS_SOCKET, s.af, s.typ, s.proto)); got != eperm {
				t.Errorf("%s: socket%v returns %#x, want EPERM", tc.name, s, got)
			}
		}
	}
}

// TCP Fast Open, which connects from sendto and sendmsg without the
// connect hook Landlock checks ports in, is refused unless the network
// setting leaves the network open anyway.
func TestFilterFastOpen(t *testing.T) {
	fo := uint64(unix.MSG_FASTOPEN | unix.MSG_NOSIGNAL)
	for _, o := range []filterOptions{{}, {internet: true}, {internet: true, lookup: true}, {network: true}} {
		prog := filterProgram(t, o)
		want := eperm
		if o.network {
			want = allowed
		}
		for _, d := range []seccompData{call(unix.SYS_SENDTO, 3, 0, 10, fo, 1, 16), call(unix.SYS_SENDMSG, 3, 1, fo),
			call(unix.SYS_SENDMMSG, 3, 1, 1, fo), call(unix.SYS_SENDTO, 3, 0, 10, fo|1<<32, 1, 16)} {
			if got := runBPF(t, prog, d); got != want {
				t.Errorf("%+v: call %d with MSG_FASTOPEN: %#x, want %#x", o, d.nr, got, want)
			}
		}
		if got := runBPF(t, prog, call(unix.SYS_SENDTO, 3, 0, 10, unix.MSG_NOSIGNAL, 1, 16)); got != allowed {
			t.Errorf("%+v: a plain sendto: %#x", o, got)
		}
	}
}

// The scheduling and priority of other processes, or of all of a user's,
// stay as they are; a command's own may change.
func TestFilterPriorities(t *testing.T) {
	prog := filterProgram(t, filterOptions{ponder: 4242})
	for _, tc := range []struct {
		d    seccompData
		want uint32
	}{
		{call(unix.SYS_SETPRIORITY, unix.PRIO_PROCESS, 0, 10), allowed},
		{call(unix.SYS_SETPRIORITY, unix.PRIO_PROCESS, 4242, 10), eperm},
		{call(unix.SYS_SETPRIORITY, unix.PRIO_USER, 0, 10), eperm},
		{call(unix.SYS_SETPRIORITY, unix.PRIO_PGRP, 0, 10), allowed},
		{call(unix.SYS_SCHED_SETAFFINITY, 0, 8, 1), allowed},
		{call(unix.SYS_SCHED_SETAFFINITY, 4242, 8, 1), eperm},
		{call(unix.SYS_SCHED_SETSCHEDULER, 1, 0, 1), eperm},
		{call(unix.SYS_IOPRIO_SET, 1, 0, 0), allowed},
		{call(unix.SYS_IOPRIO_SET, 3, 0, 0), eperm},
		{call(unix.SYS_KILL, 4242, 9), eperm},
		{call(unix.SYS_KILL, uint64(0xffffffff-4242+1), 9), eperm},
		{call(unix.SYS_KILL, 4242|1<<32, 9), eperm},
		{call(unix.SYS_KILL, 77, 9), allowed},
		{call(unix.SYS_CLONE, unix.CLONE_NEWUSER|uint64(unix.SIGCHLD)), eperm},
		{call(unix.SYS_CLONE, unix.CLONE_NEWPID|uint64(unix.SIGCHLD)), eperm},
		{call(unix.SYS_CLONE, unix.CLONE_VM|unix.CLONE_VFORK|uint64(unix.SIGCHLD)), allowed},
		{call(unix.SYS_CLONE3, 0, 88), enosys},
		{call(unix.SYS_PRLIMIT64, 0, unix.RLIMIT_CORE, 1), eperm},
		{call(unix.SYS_PRLIMIT64, 0, unix.RLIMIT_NOFILE, 0, 1), allowed},
		{call(unix.SYS_SETRLIMIT, unix.RLIMIT_CORE|1<<32, 1), eperm},
	} {
		if got := runBPF(t, prog, tc.d); got != tc.want {
			t.Errorf("call %d %x: %#x, want %#x", tc.d.nr, tc.d.args[:3], got, tc.want)
		}
	}
}
