//go:build !unix

package session

import (
	"fmt"
	"os"
)

// lockFile creates the lock file exclusively. Without flock(2) a lock left
// by a killed process cannot be told from a live one, so such a file must
// be removed by hand; the error says where it is.
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if os.IsExist(err) {
		h := Holder{}
		if r, rerr := os.Open(path); rerr == nil {
			h = readHolder(r)
			r.Close()
		}
		return nil, &LockedError{Holder: h}
	}
	if err != nil {
		return nil, fmt.Errorf("creating the session lock %s: %w", path, err)
	}
	return f, nil
}

// releaseFile closes and removes the lock file.
func releaseFile(f *os.File, path string) error {
	err := f.Close()
	if rerr := os.Remove(path); err == nil {
		err = rerr
	}
	return err
}
