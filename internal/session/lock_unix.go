//go:build unix

package session

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockFile opens path and takes an exclusive flock(2) on it without
// waiting. The kernel drops the lock when the process ends, however it
// ends, and the descriptor is close-on-exec, so no child keeps it.
func lockFile(path string) (*os.File, error) {
	for range 20 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, fmt.Errorf("opening the session lock %s: %w", path, err)
		}
		err = flock(f, syscall.LOCK_EX|syscall.LOCK_NB)
		if errors.Is(err, syscall.EWOULDBLOCK) {
			h := readHolder(f)
			f.Close()
			return nil, &LockedError{Holder: h}
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		// The holder before us may have removed the file between our open
		// and our lock; then we hold a lock on a file nobody else can
		// find, and must start again.
		held, err1 := f.Stat()
		now, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return f, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("locking %s: the lock file keeps changing", path)
}

// releaseFile removes the lock file, then lets the lock go. Removing it
// first keeps the next process from locking a file about to disappear
// (lockFile checks that the file it locked is still the one at the path).
func releaseFile(f *os.File, path string) error {
	_ = os.Remove(path)
	err := flock(f, syscall.LOCK_UN)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			return err
		}
	}
}
