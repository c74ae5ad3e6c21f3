//go:build unix

package builtin

import (
	"syscall"
)

// load reads a whole file into the worker's buffer with plain system
// calls: for the many small files of a source tree, skipping the
// bookkeeping of os.File (poller registration, finalizers) is a large
// part of the search time. The opened descriptor must be a regular file
// on a file system whose files may be read (see openForReading); what is
// read stops at the size limit whatever size the file reports, since
// pseudo files report 0 and read on without end.
func (w *grepWorker) load(path string) ([]byte, skipReason) {
	fd, err := openRetry(path)
	if err != nil {
		return nil, skippedError
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, skippedError
	}
	pseudo, refuse := pseudoFD(fd, path)
	if refuse != "" {
		return nil, skippedError
	}
	limit := w.s.maxSize
	if limit <= 0 {
		// A file named explicitly and small when looked at: one that
		// grew since is streamed instead (see searchOne).
		limit = 2 * grepMaxFileSize
	}
	tooLarge := skippedLarge
	if pseudo {
		limit = min(limit, pseudoMaxBytes)
		if w.s.maxSize > 0 {
			// A walk may meet a pseudo file on every worker at once.
			limit, tooLarge = min(limit, pseudoWalkMaxBytes), skippedLargePseudo
		}
	}
	if w.s.maxSize > 0 && st.Size > w.s.maxSize {
		return nil, skippedLarge
	}
	buf := w.buf[:0]
	for {
		if int64(len(buf)) > limit {
			return nil, tooLarge
		}
		if len(buf) == cap(buf) {
			// Grow to what the file reports, or double, but never past
			// one byte over the limit: that byte is enough to know the
			// file is too large.
			want := min(max(int(min(st.Size, limit))+4096, 2*cap(buf)), int(limit)+1)
			grown := make([]byte, len(buf), want)
			copy(grown, buf)
			buf = grown
			if want <= keptBufferMax {
				w.buf = grown[:0]
			}
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
		if len(buf) < cap(buf) && w.s.maxSize > 0 && !pseudo {
			// A short read of a regular file means its end. (Without a
			// size limit, as for a file named explicitly, read on to
			// the zero-byte end to be certain; pseudo files may return
			// less than asked at any time.)
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
