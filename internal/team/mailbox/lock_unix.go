//go:build unix

package mailbox

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// tryLock takes an exclusive flock(2) lock on f without waiting and
// reports whether it got it. The lock belongs to f's open file
// description: another open of the same file, in this process or
// another, is refused until f is closed, and the kernel drops it when
// the process dies, however it dies. That is what makes a lease held
// by a killed receiver detectable.
func tryLock(f *os.File) (bool, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return false, err
	}
	var lerr error
	if err := rc.Control(func(fd uintptr) {
		for {
			lerr = syscall.Flock(int(fd), syscall.LOCK_EX|syscall.LOCK_NB)
			if !errors.Is(lerr, syscall.EINTR) {
				return
			}
		}
	}); err != nil {
		return false, err
	}
	switch {
	case lerr == nil:
		return true, nil
	case errors.Is(lerr, syscall.EWOULDBLOCK):
		return false, nil
	default:
		return false, fmt.Errorf("mailbox: locking %s: %w", f.Name(), lerr)
	}
}

// openNonblock keeps opening a FIFO from waiting for a writer.
const openNonblock = syscall.O_NONBLOCK

// locksSupported reports whether this system has the locks the file
// mailbox needs.
const locksSupported = true
