// Package smallfile reads the small files a repository or the user hands
// ponder (settings, agent definitions, instructions) without trusting
// them: only a regular file is read, it is opened without blocking (a
// FIFO in its place cannot hang ponder), and never more than a limit is
// read (a link to /dev/zero cannot exhaust memory).
package smallfile

import (
	"fmt"
	"io"
)

// Prefix reads up to limit+1 bytes of the regular file at path, so the
// caller can tell whether it was longer than limit.
func Prefix(path string, limit int64) ([]byte, error) {
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", path, info.Mode().Type())
	}
	return io.ReadAll(io.LimitReader(f, limit+1))
}

// Read reads the whole regular file at path, which may hold at most limit
// bytes.
func Read(path string, limit int64) ([]byte, error) {
	data, err := Prefix(path, limit)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, limit)
	}
	return data, nil
}
