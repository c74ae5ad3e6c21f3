//go:build !unix

package builtin

import (
	"io"
	"os"
)

// load reads a whole file into the worker's buffer.
func (w *grepWorker) load(path string) ([]byte, skipReason) {
	f, err := os.Open(path)
	if err != nil {
		return nil, skippedError
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return nil, skippedError
	}
	if w.s.maxSize > 0 && info.Size() > w.s.maxSize {
		return nil, skippedLarge
	}
	limit := w.s.maxSize
	if limit <= 0 {
		// A file named explicitly and small when looked at: one that
		// grew since is streamed instead (see searchOne).
		limit = 2 * grepMaxFileSize
	}
	if need := int(min(info.Size(), limit)) + 1; cap(w.buf) < need {
		w.buf = make([]byte, 0, need+need/4)
	}
	buf := w.buf[:0]
	for {
		if int64(len(buf)) > limit {
			return nil, skippedLarge
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
			w.buf = buf[:0]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF || n == 0 {
			return buf, notSkipped
		}
		if err != nil {
			return nil, skippedError
		}
	}
}
