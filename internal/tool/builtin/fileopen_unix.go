//go:build unix

package builtin

import (
	"os"
	"syscall"

	"github.com/ponder-agent/ponder/internal/atomicfile"
)

// openNonBlocking opens path for reading without waiting for a writer
// (a named pipe) or a carrier (a serial line), and without making a
// terminal ponder's controlling one.
func openNonBlocking(path string) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}

// openNonBlockingNoFollow is openNonBlocking of an absolute path that
// follows no symbolic link anywhere in it.
func openNonBlockingNoFollow(path string) (*os.File, error) {
	return atomicfile.OpenNoFollow(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY)
}
