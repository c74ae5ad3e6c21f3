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

// fileID identifies a file whatever its name.
type fileID struct{ dev, ino uint64 }

// fileIdentity returns a file's identity and its number of hard links.
func fileIdentity(info os.FileInfo) (fileID, uint64, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, 0, false
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, uint64(st.Nlink), true
}
