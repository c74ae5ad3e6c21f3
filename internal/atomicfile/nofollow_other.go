//go:build !unix

package atomicfile

import (
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
