package tool

import (
	"os"
	"sync"
	"time"
)

// FileTracker remembers the files a session has read and their state at
// that time. Write and Edit refuse to change an existing file the session
// has not read, or one that changed on disk since it was read, so the model
// never overwrites what it has not seen.
type FileTracker struct {
	mu   sync.Mutex
	seen map[string]fileStamp
	// observe, when set, learns every new state noted, so that a session
	// can record it and a resume can bring it back (Restore).
	observe func(path string, mod time.Time, size int64)
}

type fileStamp struct {
	mod  time.Time
	size int64
}

// Observe makes f learn each state the tracker notes that differs from the
// one it held for the path (the session records them in its transcript).
func (t *FileTracker) Observe(f func(path string, mod time.Time, size int64)) {
	t.mu.Lock()
	t.observe = f
	t.mu.Unlock()
}

// Restore records that the session saw path with the given modification
// time and size, as a resumed session learns it from its transcript. A
// file changed since then is still stale: CheckFresh compares the state
// on disk with this one.
func (t *FileTracker) Restore(path string, mod time.Time, size int64) {
	t.mu.Lock()
	t.seen[path] = fileStamp{mod: mod, size: size}
	t.mu.Unlock()
}

// NewFileTracker returns an empty tracker.
func NewFileTracker() *FileTracker { return &FileTracker{seen: map[string]fileStamp{}} }

// Note records the current state of path as seen by the session (after a
// read, or after ponder itself wrote the file).
func (t *FileTracker) Note(path string) {
	info, err := os.Stat(path)
	if err != nil {
		return
	}
	st := fileStamp{mod: info.ModTime(), size: info.Size()}
	t.mu.Lock()
	old, had := t.seen[path]
	t.seen[path] = st
	observe := t.observe
	t.mu.Unlock()
	if observe != nil && (!had || !old.mod.Equal(st.mod) || old.size != st.size) {
		observe(path, st.mod, st.size)
	}
}

// Forget drops what is known of path.
func (t *FileTracker) Forget(path string) {
	t.mu.Lock()
	delete(t.seen, path)
	t.mu.Unlock()
}

// Seen lists the tracked paths, for carrying them into a forked session.
func (t *FileTracker) Seen() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]string, 0, len(t.seen))
	for p := range t.seen {
		out = append(out, p)
	}
	return out
}

// CheckFresh returns nil when path does not exist, or when the session read
// it and it has not changed since. Otherwise the error says what to do.
func (t *FileTracker) CheckFresh(path string) error {
	info, err := os.Stat(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	t.mu.Lock()
	st, ok := t.seen[path]
	t.mu.Unlock()
	if !ok {
		return &StaleError{Path: path, NeverRead: true}
	}
	if !st.mod.Equal(info.ModTime()) || st.size != info.Size() {
		return &StaleError{Path: path}
	}
	return nil
}

// StaleError says that a file must be read (again) before it is changed.
type StaleError struct {
	Path      string
	NeverRead bool
}

func (e *StaleError) Error() string {
	if e.NeverRead {
		return "File " + e.Path + " has not been read in this session. Read it first, then write or edit it."
	}
	return "File " + e.Path + " has changed on disk since it was last read. Read it again before changing it."
}
