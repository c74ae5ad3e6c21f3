//go:build unix

package builtin

import (
	"syscall"
)

// load reads a whole file into the worker's buffer with plain system
// calls: for the many small files of a source tree, skipping the
// bookkeeping of os.File (poller registration, finalizers, a stat per
// file) is a large part of the search time. The file size is only asked
// for when the buffer fills up.
func (w *grepWorker) load(path string) ([]byte, skipReason) {
	fd, err := openRetry(path)
	if err != nil {
		return nil, skippedError
	}
	defer syscall.Close(fd)
	buf := w.buf[:0]
	for {
		if len(buf) == cap(buf) {
			var st syscall.Stat_t
			if err := syscall.Fstat(fd, &st); err != nil {
				return nil, skippedError
			}
			if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
				return nil, skippedError
			}
			if w.s.maxSize > 0 && st.Size > w.s.maxSize {
				return nil, skippedLarge
			}
			grown := make([]byte, len(buf), max(int(st.Size)+4096, 2*cap(buf)))
			copy(grown, buf)
			buf = grown
			w.buf = grown[:0]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, skippedError
		}
		if n == 0 {
			return buf, notSkipped
		}
		buf = buf[:len(buf)+n]
		if len(buf) < cap(buf) && w.s.maxSize > 0 {
			// A short read of a regular file means its end. (Without a
			// size limit, as for a file named explicitly, read on to
			// the zero-byte end to be certain.)
			return buf, notSkipped
		}
	}
}

func openRetry(path string) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}
