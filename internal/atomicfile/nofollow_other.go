//go:build !unix

package atomicfile

import (
	"errors"
	"io"
	"os"
)

// WriteNoFollow is Write where directories cannot be opened on their
// own; links are as rare there as writable shared directories.
func WriteNoFollow(path string, data []byte, perm os.FileMode) error {
	return Write(path, data, perm)
}

// ReadNoFollow reads at most limit bytes of path.
func ReadNoFollow(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}

// ErrLinkOnTheWay is the error of a NoFollow function that met a symbolic
// link where it follows none.
var ErrLinkOnTheWay = errors.New("a symbolic link is on the way, and none is followed here")

// OpenNoFollow opens path with flags; here links are not refused.
func OpenNoFollow(path string, flags int) (*os.File, error) {
	return os.OpenFile(path, flags, 0)
}
