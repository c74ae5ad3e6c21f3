//go:build linux

package mailbox

import (
	"os"
	"syscall"
	"time"
)

// How often a waiting receiver looks at its inbox when inotify watches
// it. The one change inotify cannot report is the death of a process
// holding a lease (the kernel drops the lock; no file changes), so while
// a lease is out the receiver looks every leaseCheck: that bounds how
// late a message leased by a killed receiver is handed out again.
// Otherwise inotify reports every arrival, and idleCheck only guards
// against a lost event.
const (
	leaseCheck = 500 * time.Millisecond
	idleCheck  = 5 * time.Second
)

// watcher wakes a waiting receiver when a file is moved into its inbox
// or out of its processing directory, from any process, through Linux's
// inotify. The inotify descriptor is non-blocking, so os.File reads it
// through the runtime poller and Close ends the read at once.
type watcher struct {
	f *os.File
	c chan struct{}
}

// newWatcher watches inbox for arrivals and processing for departures.
// It returns nil when inotify is unavailable; the receiver then polls.
func newWatcher(inbox, processing string) *watcher {
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		return nil
	}
	if _, err := syscall.InotifyAddWatch(fd, inbox, syscall.IN_MOVED_TO); err != nil {
		syscall.Close(fd)
		return nil
	}
	if _, err := syscall.InotifyAddWatch(fd, processing, syscall.IN_MOVED_FROM|syscall.IN_DELETE); err != nil {
		syscall.Close(fd)
		return nil
	}
	w := &watcher{f: os.NewFile(uintptr(fd), "inotify"), c: make(chan struct{}, 1)}
	go w.read()
	return w
}

func (w *watcher) read() {
	buf := make([]byte, 4096)
	for {
		if _, err := w.f.Read(buf); err != nil {
			return // closed
		}
		select {
		case w.c <- struct{}{}:
		default:
		}
	}
}

// changed is signalled after something changed; nil on a nil watcher.
func (w *watcher) changed() <-chan struct{} {
	if w == nil {
		return nil
	}
	return w.c
}

// fallback is how long to wait before looking again without a signal;
// busy says a lease is out.
func (w *watcher) fallback(polls int, busy bool) time.Duration {
	switch {
	case w == nil:
		return pollInterval(polls)
	case busy:
		return leaseCheck
	default:
		return idleCheck
	}
}

func (w *watcher) close() {
	if w != nil {
		w.f.Close()
	}
}
