//go:build linux && (amd64 || arm64)

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// dropCapabilities empties the calling thread's capability sets: the
// bounding set first (so no program run later gets any back, not even
// root's), then the ambient, effective, permitted and inheritable sets.
// A command ponder runs as root is then no stronger than any other user's.
func dropCapabilities() error {
	last := lastCapability()
	for c := 0; c <= last; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil {
			if errors.Is(err, unix.EINVAL) {
				break // beyond what the kernel knows
			}
			if !errors.Is(err, unix.EPERM) {
				return fmt.Errorf("dropping capability %d from the bounding set: %w", c, err)
			}
			// EPERM: without CAP_SETPCAP the set cannot shrink, but then
			// the process is not privileged and the set grants nothing
			// that no_new_privs does not already withhold.
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("clearing ambient capabilities: %w", err)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("dropping capabilities: %w", err)
	}
	return nil
}

// lastCapability is the highest capability number the kernel knows.
func lastCapability() int {
	data, err := os.ReadFile("/proc/sys/kernel/cap_last_cap")
	if err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
			return n
		}
	}
	return unix.CAP_LAST_CAP
}

// capSysPtrace is CAP_SYS_PTRACE.
const capSysPtrace = unix.CAP_SYS_PTRACE

// dropPtrace takes CAP_SYS_PTRACE from the calling thread, in every set
// that could hand it to a program the thread starts: the bounding set
// (a program run as root gets its permitted set from there), the
// ambient set, and the effective, permitted and inheritable sets. ponder
// is not dumpable, so without this capability no command it starts, even
// one running as root, can read ponder's memory (/proc/PID/mem, where its
// API key lives) or attach to it. Without CAP_SETPCAP the bounding set
// cannot shrink, but then ponder does not hold the capability either.
func dropPtrace() error {
	if err := unix.Prctl(unix.PR_CAPBSET_DROP, capSysPtrace, 0, 0, 0); err != nil && !errors.Is(err, unix.EPERM) && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("dropping CAP_SYS_PTRACE from the bounding set: %w", err)
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_LOWER, capSysPtrace, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.EPERM) {
		return fmt.Errorf("lowering ambient CAP_SYS_PTRACE: %w", err)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("reading capabilities: %w", err)
	}
	bit := uint32(1) << (capSysPtrace % 32)
	i := capSysPtrace / 32
	if (data[i].Effective|data[i].Permitted|data[i].Inheritable)&bit == 0 {
		return nil
	}
	data[i].Effective &^= bit
	data[i].Permitted &^= bit
	data[i].Inheritable &^= bit
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("dropping CAP_SYS_PTRACE: %w", err)
	}
	return nil
}

// unconfinedRestrict is what every command started outside the sandbox
// gets on its starting thread.
var unconfinedRestrict = dropPtrace
