//go:build unix

package permission

import (
	"os"
	"syscall"
)

// linkCount returns the number of hard links of a file.
func linkCount(info os.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
