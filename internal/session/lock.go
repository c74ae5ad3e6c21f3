package session

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Holder says which process holds a session's lock; it is written into the
// lock file so that another process can say who is in its way.
type Holder struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host,omitempty"`
	Started time.Time `json:"started"`
	Command string    `json:"command,omitempty"`
}

// LockedError says a session is in use by another process.
type LockedError struct {
	SessionID string
	// Holder is what the lock file says; zero when it could not be read.
	Holder Holder
}

func (e *LockedError) Error() string {
	who := "another ponder process"
	if h := e.Holder; h.PID > 0 {
		var parts []string
		parts = append(parts, fmt.Sprintf("pid %d", h.PID))
		if h.Host != "" {
			parts = append(parts, "on "+h.Host)
		}
		if !h.Started.IsZero() {
			parts = append(parts, "since "+h.Started.Local().Format("2006-01-02 15:04:05"))
		}
		who += " (" + strings.Join(parts, " ") + ")"
		if h.Command != "" {
			who += ": " + h.Command
		}
	}
	return fmt.Sprintf("session %s is in use by %s; wait until it ends, or add --fork-session to continue a copy of it", e.SessionID, who)
}

// Lock is a held session lock. Two processes never hold the lock of one
// session at once, so they never append to one transcript together.
type Lock struct {
	f    *os.File
	path string
}

// LockPath is the lock file of a session, beside its transcript.
func (s Store) LockPath(sessionID string) string {
	return filepath.Join(s.Dir, sessionID+".lock")
}

// Lock takes the lock of a session without waiting. When another process
// holds it, the error is a *LockedError naming that process. The lock goes
// with the process: a process that ends, even by kill -9, leaves the lock
// free for the next one, and the programs it starts do not inherit it.
func (s Store) Lock(sessionID string) (*Lock, error) {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("locking session %s: %w", sessionID, err)
	}
	path := s.LockPath(sessionID)
	f, err := lockFile(path)
	if err != nil {
		if le, ok := err.(*LockedError); ok {
			le.SessionID = sessionID
		}
		return nil, err
	}
	l := &Lock{f: f, path: path}
	l.describe()
	return l, nil
}

// describe writes who holds the lock into the file. It is informative
// only: on a full disk the lock holds all the same.
func (l *Lock) describe() {
	host, _ := os.Hostname()
	cmd := strings.Join(os.Args, " ")
	if r := []rune(cmd); len(r) > 120 {
		cmd = string(r[:120]) + "…"
	}
	data, err := json.Marshal(Holder{PID: os.Getpid(), Host: host, Started: time.Now().UTC(), Command: cmd})
	if err != nil {
		return
	}
	if l.f.Truncate(0) == nil {
		_, _ = l.f.WriteAt(append(data, '\n'), 0)
	}
}

// Release gives the lock up and removes its file.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := releaseFile(l.f, l.path)
	l.f = nil
	return err
}

// readHolder reads who holds the lock in f.
func readHolder(f *os.File) Holder {
	buf := make([]byte, 4096)
	n, _ := f.ReadAt(buf, 0)
	var h Holder
	_ = json.Unmarshal(buf[:n], &h)
	return h
}
