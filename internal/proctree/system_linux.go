//go:build linux

package proctree

import (
	"bytes"
	"os"
	"os/signal"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// linux reads processes from /proc and signals them through pidfds, so a
// process id reused between listing and killing is never hit.
type linux struct{}

func hostSystem() system { return linux{} }

func (linux) pid() int { return os.Getpid() }

func (linux) becomeSubreaper() {
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// ticksPerSecond is USER_HZ, the unit of start times in /proc, which Linux
// fixes at 100 for user space.
const ticksPerSecond = 100

// now is CLOCK_BOOTTIME in ticks, the clock /proc start times use.
func (linux) now() uint64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts); err != nil {
		return 0
	}
	return uint64(ts.Sec)*ticksPerSecond + uint64(ts.Nsec)/(1e9/ticksPerSecond)
}

// list returns ponder's descendants. Every process a command starts is
// one: a process whose parent dies is re-parented to the nearest
// subreaper, ponder or one below it. Walking the children files is much
// cheaper than reading every process on the machine; without them
// (CONFIG_PROC_CHILDREN off) list reads them all.
func (linux) list() map[int]proc {
	self := os.Getpid()
	queue, ok := childrenOf(self)
	if !ok {
		return listAll()
	}
	out := map[int]proc{}
	for len(queue) > 0 {
		pid := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if _, seen := out[pid]; seen || pid == self {
			continue
		}
		p, ok := readStat(pid)
		if !ok {
			continue
		}
		out[pid] = p
		kids, _ := childrenOf(pid)
		queue = append(queue, kids...)
	}
	return out
}

// childrenOf reads the children of every thread of pid. ok is false when
// the kernel does not offer the children files.
func childrenOf(pid int) (kids []int, ok bool) {
	base := "/proc/" + strconv.Itoa(pid) + "/task/"
	d, err := os.Open(base)
	if err != nil {
		return nil, true // gone
	}
	tids, _ := d.Readdirnames(-1)
	d.Close()
	found := false
	for _, tid := range tids {
		data, err := os.ReadFile(base + tid + "/children")
		if err != nil {
			continue
		}
		found = true
		for _, f := range bytes.Fields(data) {
			if n, err := strconv.Atoi(string(f)); err == nil {
				kids = append(kids, n)
			}
		}
	}
	return kids, found || len(tids) == 0
}

// listAll reads every process on the machine.
func listAll() map[int]proc {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil
	}
	out := make(map[int]proc, len(names))
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		if p, ok := readStat(pid); ok {
			out[pid] = p
		}
	}
	return out
}

// readStat parses /proc/PID/stat: "pid (comm) state ppid pgrp session …
// starttime" where comm may hold spaces and parentheses, so fields are
// counted from the last ')'.
func readStat(pid int) (proc, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return proc{}, false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return proc{}, false
	}
	f := bytes.Fields(data[i+1:])
	// f[0] is field 3 (state); starttime is field 22.
	if len(f) < 20 {
		return proc{}, false
	}
	num := func(b []byte) int { n, _ := strconv.Atoi(string(b)); return n }
	start, _ := strconv.ParseUint(string(f[19]), 10, 64)
	return proc{
		zombie: f[0][0] == 'Z' || f[0][0] == 'X',
		ppid:   num(f[1]),
		pgid:   num(f[2]),
		sid:    num(f[3]),
		start:  start,
	}, true
}

func (linux) kill(pid int, start uint64) int {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		if err == unix.ENOSYS {
			_ = unix.Kill(pid, unix.SIGKILL)
		}
		return -1
	}
	// The descriptor pins the process: if it is still the one listed,
	// the signal reaches it and nothing else.
	if p, ok := readStat(pid); !ok || p.start != start {
		unix.Close(fd)
		return -1
	}
	if err := unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0); err != nil {
		unix.Close(fd)
		return -1
	}
	return fd
}

func (linux) await(fds []int, timeout time.Duration) {
	defer func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	}()
	deadline := time.Now().Add(timeout)
	pending := fds
	for len(pending) > 0 {
		left := time.Until(deadline)
		if left <= 0 {
			return
		}
		pfds := make([]unix.PollFd, len(pending))
		for i, fd := range pending {
			pfds[i] = unix.PollFd{Fd: int32(fd), Events: unix.POLLIN}
		}
		n, err := unix.Poll(pfds, int(left/time.Millisecond)+1)
		if err != nil && err != unix.EINTR {
			return
		}
		if n <= 0 {
			continue
		}
		var still []int
		for _, p := range pfds {
			if p.Revents == 0 {
				still = append(still, int(p.Fd))
			}
		}
		pending = still
	}
}

func (linux) killGroup(pgid int) { _ = unix.Kill(-pgid, unix.SIGKILL) }

// reap waits for the child through a pidfd, so that a pid freed and
// reused meanwhile is never collected by mistake.
func (linux) reap(pid int, start uint64) bool {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		if err == unix.ENOSYS {
			var ws unix.WaitStatus
			got, _ := unix.Wait4(pid, &ws, unix.WNOHANG, nil)
			return got == pid
		}
		return false
	}
	defer unix.Close(fd)
	if p, ok := readStat(pid); !ok || p.start != start {
		return false
	}
	var info unix.Siginfo
	return unix.Waitid(unix.P_PIDFD, fd, &info, unix.WEXITED|unix.WNOHANG, nil) == nil
}

func (linux) ids() (sid, pgid int) {
	sid, _ = unix.Getsid(0)
	return sid, unix.Getpgrp()
}

// zombies reads ponder's direct children and keeps those that exited.
func (linux) zombies() map[int]proc {
	kids, _ := childrenOf(os.Getpid())
	var out map[int]proc
	for _, pid := range kids {
		if p, ok := readStat(pid); ok && p.zombie {
			if out == nil {
				out = map[int]proc{}
			}
			out[pid] = p
		}
	}
	return out
}

// watchChildren runs f after each SIGCHLD; signals that arrive while f
// runs are merged into one more run.
func (linux) watchChildren(f func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, unix.SIGCHLD)
	go func() {
		for range ch {
			f()
		}
	}()
}
