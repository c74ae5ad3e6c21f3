package session

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/ponder-agent/ponder/internal/atomicfile"
)

// keepInPlace makes sure the writer's path still names the file it
// writes. A transcript deleted while the session runs lives on in the
// open file, which nobody could find again (--resume would say there is
// no such session); one replaced by another file (an editor's save, a
// restore from a backup, a stray rename) would take the session's next
// lines into a file that is not its transcript. Either way the
// transcript is put back at its path from the open file, which holds
// every line written so far, the other file is moved aside rather than
// lost; the message returned says what happened, for the user. Called
// with w.mu held.
func (w *Writer) keepInPlace() (string, error) {
	own, err := w.f.Stat()
	if err != nil {
		return "", fmt.Errorf("checking transcript %s: %w", w.path, err)
	}
	there, err := os.Lstat(w.path)
	switch {
	case err == nil && os.SameFile(own, there):
		return "", nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		// The path cannot be looked at (its directory's permissions
		// changed, say): nothing to tell, keep writing.
		return "", nil
	}
	aside := ""
	if err == nil {
		aside = w.path + ".replaced-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	}
	if err := w.restore(own.Size(), aside); err != nil {
		return "", fmt.Errorf("transcript %s was removed while the session ran, and could not be written again: %w", w.path, err)
	}
	if aside != "" {
		return fmt.Sprintf("transcript %s was replaced by another file while the session ran; ponder put the session's own back (%d lines) and moved the other file to %s", w.path, w.lines, aside), nil
	}
	return fmt.Sprintf("transcript %s was deleted while the session ran; ponder wrote it again from what it holds (%d lines)", w.path, w.lines), nil
}

// restore copies the first size bytes of the open file into a new file
// linked in at the path, moving whatever is there to aside first (when
// aside is not empty), and goes on writing to the new file.
func (w *Writer) restore(size int64, aside string) error {
	dir := filepath.Dir(w.path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := atomicfile.CreateTemp(dir, w.path)
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = io.Copy(tmp, io.NewSectionReader(w.f, 0, size))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if aside != "" {
		// Link, not rename: a file that appeared at aside meanwhile is
		// never overwritten.
		if err := os.Link(w.path, aside); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("keeping the file found there: %w", err)
		}
		if err := os.Rename(tmp.Name(), w.path); err != nil {
			return err
		}
	} else if err := os.Link(tmp.Name(), w.path); err != nil {
		// Another file appeared at the path since it was looked at: the
		// next append handles it as a replacement.
		return err
	}
	f, err := os.OpenFile(w.path, os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	old := w.f
	w.f = f
	old.Close()
	syncDir(dir)
	return nil
}

// syncDir makes a new name in dir durable, where the system allows.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
