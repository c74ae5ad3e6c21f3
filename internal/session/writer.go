package session

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Writer appends entries to a transcript. Each entry is written with one
// write call as soon as it is appended, so a process killed mid-turn loses
// at most the line being written, and the loader drops that line. Sync
// makes what was written durable; the agent calls it at each turn's end.
type Writer struct {
	mu   sync.Mutex
	f    *os.File
	path string
	now  func() time.Time
	err  error
}

// Create starts a new transcript at path with a header entry.
func Create(path string, h Entry) (*Writer, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("creating transcript: %w", err)
	}
	w := &Writer{f: f, path: path, now: time.Now}
	h.Type = TypeHeader
	h.Version = FormatVersion
	if err := w.Append(h); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// Open continues an existing transcript.
func Open(path string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening transcript: %w", err)
	}
	w := &Writer{f: f, path: path, now: time.Now}
	if err := w.endCutLine(); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// endCutLine makes sure the file ends with a newline, so that a line cut by
// a killed process does not swallow the next entry.
func (w *Writer) endCutLine() error {
	info, err := w.f.Stat()
	if err != nil || info.Size() == 0 {
		return err
	}
	r, err := os.Open(w.path)
	if err != nil {
		return err
	}
	defer r.Close()
	last := make([]byte, 1)
	if _, err := r.ReadAt(last, info.Size()-1); err != nil {
		return err
	}
	if last[0] != '\n' {
		_, err = w.f.Write([]byte("\n"))
	}
	return err
}

// Path is the transcript's file.
func (w *Writer) Path() string { return w.path }

// Append writes one entry, stamping its time if unset. After a write error
// the writer keeps failing with that error, so a broken disk is reported
// once clearly instead of leaving a transcript with holes.
func (w *Writer) Append(e Entry) error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if e.Time.IsZero() {
		e.Time = w.now().UTC()
	}
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("encoding transcript entry: %w", err)
	}
	line = append(line, '\n')
	if _, err := w.f.Write(line); err != nil {
		w.err = fmt.Errorf("writing transcript %s: %w", w.path, err)
		return w.err
	}
	return nil
}

// Sync flushes the transcript to disk.
func (w *Writer) Sync() error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	return w.f.Sync()
}

// Close syncs and closes the file.
func (w *Writer) Close() error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.f.Sync()
	return w.f.Close()
}
