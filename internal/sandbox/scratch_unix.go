//go:build unix

package sandbox

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// ownedByMe reports whether p is a directory, not a link, owned by the
// effective user.
func ownedByMe(p string) bool {
	var st syscall.Stat_t
	if err := syscall.Lstat(p, &st); err != nil {
		return false
	}
	return st.Mode&syscall.S_IFMT == syscall.S_IFDIR && int(st.Uid) == os.Geteuid()
}

// processStart returns when pid started (clock ticks since boot, from
// /proc where there is one; 0 elsewhere) and whether it runs at all.
func processStart(pid int) (uint64, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		if _, err := os.Stat("/proc/self/stat"); err == nil {
			return 0, false // /proc works and pid is not in it
		}
		err := syscall.Kill(pid, 0)
		return 0, err == nil || err == syscall.EPERM
	}
	// Fields are counted from the last ')': comm may hold anything.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, true
	}
	f := bytes.Fields(data[i+1:])
	if len(f) < 20 {
		return 0, true
	}
	if f[0][0] == 'Z' || f[0][0] == 'X' {
		return 0, false
	}
	start, _ := strconv.ParseUint(string(f[19]), 10, 64)
	return start, true
}
