//go:build linux

package atomicfile

import "golang.org/x/sys/unix"

// openat2NoSymlinks opens path with flags (and O_CLOEXEC), the kernel
// refusing any symbolic link on the way (RESOLVE_NO_SYMLINKS), or reports
// ENOSYS where the kernel has no openat2.
func openat2NoSymlinks(path string, flags int) (int, error) {
	how := unix.OpenHow{Flags: uint64(flags | unix.O_CLOEXEC), Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
	for {
		fd, err := unix.Openat2(unix.AT_FDCWD, path, &how)
		if err != unix.EINTR && err != unix.EAGAIN {
			return fd, err
		}
	}
}
