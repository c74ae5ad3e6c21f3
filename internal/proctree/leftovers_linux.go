//go:build linux

package proctree

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// CanSweep reports whether leftovers of a killed ponder can be found and
// killed safely here: it takes /proc and pidfds (Linux 5.3).
func CanSweep() bool {
	fd, err := unix.PidfdOpen(os.Getpid(), 0)
	if err != nil {
		return false
	}
	unix.Close(fd)
	return true
}

// selfStart is this process's start time in ticks since boot.
func selfStart() uint64 {
	p, ok := readStat(os.Getpid())
	if !ok {
		return 0
	}
	return p.start
}

// bootID tells one boot from another: start times count from boot.
func bootID() string {
	data, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

// running reports whether the process born at start still runs as pid.
func running(pid int, start uint64) bool {
	p, ok := readStat(pid)
	return ok && p.start == start && !p.zombie
}

// killMarked kills the processes that carry the mark of a dead ponder, in
// rounds until none is left (a process killed with SIGKILL cannot fork
// again, but one found alive may have forked since the listing).
func killMarked(dead []record) int {
	killed := 0
	for range 5 {
		var fds []int
		for _, pid := range ownProcesses() {
			if fd := killIfMarked(pid, dead); fd >= 0 {
				fds = append(fds, fd)
			}
		}
		if len(fds) == 0 {
			break
		}
		killed += len(fds)
		linux{}.await(fds, 2*time.Second)
	}
	return killed
}

// ownProcesses lists the processes of this user, but this one.
func ownProcesses() []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	self, uid := os.Getpid(), uint32(os.Geteuid())
	var out []int
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid == self {
			continue
		}
		var st unix.Stat_t
		if unix.Stat("/proc/"+name, &st) != nil || st.Uid != uid {
			continue
		}
		out = append(out, pid)
	}
	return out
}

// killIfMarked sends SIGKILL to pid if it carries the mark of one of the
// dead and was born after that ponder started. The process is pinned by a
// pidfd before anything about it is read, so what is checked is what is
// signalled. It returns the pidfd to await, or -1.
func killIfMarked(pid int, dead []record) int {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return -1
	}
	p, ok := readStat(pid)
	if !ok || p.zombie {
		unix.Close(fd)
		return -1
	}
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		unix.Close(fd)
		return -1
	}
	env = append([]byte{0}, env...)
	for _, rec := range dead {
		if p.start < rec.Start {
			continue
		}
		if bytes.Contains(env, []byte("\x00"+RunIDEnv+"="+rec.Mark+"\x00")) {
			if unix.PidfdSendSignal(fd, syscall.SIGKILL, nil, 0) == nil {
				return fd
			}
			break
		}
	}
	unix.Close(fd)
	return -1
}
