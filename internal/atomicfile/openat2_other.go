//go:build unix && !linux

package atomicfile

import "golang.org/x/sys/unix"

// openat2NoSymlinks reports ENOSYS: only Linux has openat2.
func openat2NoSymlinks(string, int) (int, error) { return -1, unix.ENOSYS }
