//go:build !unix

package mailbox

import (
	"errors"
	"os"
)

// tryLock is not available here: the file mailbox needs flock(2).
func tryLock(*os.File) (bool, error) {
	return false, errors.New("mailbox: the file mailbox needs flock, which this system lacks")
}

const locksSupported = false

const openNonblock = 0
