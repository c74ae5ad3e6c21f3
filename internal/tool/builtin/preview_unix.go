//go:build unix

package builtin

import (
	"os"
	"syscall"
)

// openNoBlock opens a file for reading without waiting on a FIFO's writer.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
