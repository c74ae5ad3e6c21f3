//go:build linux

package atomicfile

import "golang.org/x/sys/unix"

// openat2NoSymlinks opens the directory dir with the kernel refusing any
// symbolic link on the way (RESOLVE_NO_SYMLINKS), or reports ENOSYS where
// the kernel has no openat2.
func openat2NoSymlinks(dir string) (int, error) {
	how := unix.OpenHow{Flags: unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
	for {
		fd, err := unix.Openat2(unix.AT_FDCWD, dir, &how)
		if err != unix.EINTR && err != unix.EAGAIN {
			return fd, err
		}
	}
}
