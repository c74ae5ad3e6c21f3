package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/ponder-agent/ponder/internal/atomicfile"
)

// Writer appends entries to a transcript. Each entry is written with one
// write call as soon as it is appended, so a process killed mid-turn loses
// at most the line being written, and the loader drops that line. Sync
// makes what was written durable; the agent calls it at each turn's end.
//
// Before each append the writer checks that its path still names the file
// it writes; a transcript deleted, or replaced by another file, while the
// session runs is written again from the open file (see restore).
type Writer struct {
	mu   sync.Mutex
	f    *os.File
	path string
	now  func() time.Time
	err  error
	// lines counts the lines in the file, for Reported.
	lines int
	// warn reports a transcript put back; nil: nobody is told.
	warn func(string)
}

// Create starts a new transcript at path with a header entry. The file
// appears with its header or not at all: a full disk, or a process killed
// at the wrong moment, never leaves an empty transcript behind.
func Create(path string, h Entry) (*Writer, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	w := &Writer{path: path, now: time.Now}
	h.Type = TypeHeader
	h.Version = FormatVersion
	first, err := w.encode(h)
	if err != nil {
		return nil, err
	}
	if err := createWith(path, first); err != nil {
		// The cause alone: the temporary file's name would only confuse.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("creating transcript %s: %w", path, err)
	}
	if w.f, err = os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0o600); err != nil {
		return nil, fmt.Errorf("opening transcript: %w", err)
	}
	w.lines = 1
	return w, nil
}

// createWith creates path holding first. It writes a temporary file and
// links it into place, which fails if path exists; where hard links are
// not available it creates path exclusively and removes it again if the
// write fails.
func createWith(path string, first []byte) error {
	tmp, err := atomicfile.CreateTemp(filepath.Dir(path), path)
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := writeSynced(tmp, first); err != nil {
		return err
	}
	err = os.Link(tmp.Name(), path)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if err := writeSynced(f, first); err != nil {
		os.Remove(path) // created above, exclusively: it is ours
		return err
	}
	return nil
}

// writeSynced writes data to f, flushes it to disk and closes f.
func writeSynced(f *os.File, data []byte) error {
	_, err := f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Continue opens a loaded transcript for appending, so that a resumed
// session goes on in the same file. A last line cut off by a killed
// process is removed (it held nothing readable, and anything appended
// after it would turn it into a damaged line in the middle of the file);
// a last line that is whole but lacks its newline gets one. The
// transcript must not have changed since it was loaded, which the
// session's lock ensures.
func Continue(t *Transcript) (*Writer, error) {
	f, err := os.OpenFile(t.Path, os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening transcript: %w", err)
	}
	w := &Writer{f: f, path: t.Path, now: time.Now, lines: t.Lines}
	if err := w.endCleanly(t); err != nil {
		f.Close()
		return nil, fmt.Errorf("repairing the end of transcript %s: %w", t.Path, err)
	}
	return w, nil
}

// endCleanly makes the file end with a whole line.
func (w *Writer) endCleanly(t *Transcript) error {
	if !t.unterminated {
		return nil
	}
	info, err := w.f.Stat()
	if err != nil {
		return err
	}
	if t.cutFrom >= 0 && info.Size() == t.Size {
		if err := w.f.Truncate(t.cutFrom); err == nil {
			w.lines--
			return w.f.Sync()
		}
	}
	// A line that was whole, or a file that could not be cut back: end
	// the line, so that what follows starts on a line of its own.
	_, err = w.f.Write([]byte("\n"))
	return err
}

// Reported records that the damage up to the last line written so far was
// reported to the user, so that loading the transcript again does not
// report it again.
func (w *Writer) Reported() error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	through := w.lines
	w.mu.Unlock()
	return w.Append(Entry{Type: TypeRepaired, Through: through})
}

// OnRestore sets how the writer reports a transcript it had to put back
// (deleted or replaced while the session ran).
func (w *Writer) OnRestore(warn func(string)) {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.warn = warn
	w.mu.Unlock()
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
	restored, err := w.append(e)
	warn := w.warn
	w.mu.Unlock()
	// Told with the lock released, so that whoever hears may append.
	if restored != "" && warn != nil {
		warn(restored)
	}
	return err
}

// append writes e with w.mu held; restored says how the transcript was
// put back first, if it was.
func (w *Writer) append(e Entry) (restored string, err error) {
	if w.err != nil {
		return "", w.err
	}
	line, err := w.encode(e)
	if err != nil {
		return "", err
	}
	if restored, err = w.keepInPlace(); err != nil {
		w.err = err
		return "", err
	}
	if _, err := w.f.Write(line); err != nil {
		w.err = fmt.Errorf("writing transcript %s: %w", w.path, err)
		return restored, w.err
	}
	w.lines++
	return restored, nil
}

// encode turns an entry into its line, stamping its time if unset.
func (w *Writer) encode(e Entry) ([]byte, error) {
	if e.Time.IsZero() {
		e.Time = w.now().UTC()
	}
	line, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("encoding transcript entry: %w", err)
	}
	return append(line, '\n'), nil
}

// Sync flushes the transcript to disk, after putting it back if it was
// removed since the last entry.
func (w *Writer) Sync() error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	restored, err := w.sync()
	warn := w.warn
	w.mu.Unlock()
	if restored != "" && warn != nil {
		warn(restored)
	}
	return err
}

// sync is Sync with w.mu held.
func (w *Writer) sync() (restored string, err error) {
	if w.err != nil {
		return "", w.err
	}
	if restored, err = w.keepInPlace(); err != nil {
		w.err = err
		return "", err
	}
	return restored, w.f.Sync()
}

// Close syncs and closes the file; a transcript removed since the last
// entry is put back first, so that the session can be resumed.
func (w *Writer) Close() error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	restored, _ := w.sync()
	warn := w.warn
	err := w.f.Close()
	w.mu.Unlock()
	if restored != "" && warn != nil {
		warn(restored)
	}
	return err
}
