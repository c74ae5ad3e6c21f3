//go:build linux

package builtin

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// catchesTerm reports whether process pid handles SIGTERM itself
// (SigCgt in /proc/PID/status); when that cannot be read, it counts as
// handling it, so that nothing is killed on a guess.
func catchesTerm(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return true
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("SigCgt:")); ok {
			mask, err := strconv.ParseUint(string(bytes.TrimSpace(v)), 16, 64)
			return err != nil || mask&(1<<(uint(syscall.SIGTERM)-1)) != 0
		}
	}
	return true
}
