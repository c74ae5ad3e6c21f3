package session

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Store knows where a project's transcripts live:
// <config>/projects/<project-key>/<session-id>.jsonl, with subagent
// transcripts in <session-id>/agent-<agent-id>.jsonl beside it.
type Store struct {
	Dir string
}

// NewStore returns the store of the project at projectDir.
func NewStore(configDir, projectDir string) Store {
	return Store{Dir: filepath.Join(configDir, "projects", ProjectKey(projectDir))}
}

// ProjectKey turns a project path into a directory name: every character
// that is not a letter or digit becomes "-"; long paths are shortened and
// made unique with a hash.
func ProjectKey(projectDir string) string {
	var b strings.Builder
	for _, r := range projectDir {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	key := b.String()
	if len(key) > 120 {
		sum := sha256.Sum256([]byte(projectDir))
		key = key[len(key)-100:] + "-" + hex.EncodeToString(sum[:6])
	}
	return key
}

// Path is the transcript file of a session.
func (s Store) Path(sessionID string) string {
	return filepath.Join(s.Dir, sessionID+".jsonl")
}

// AgentPath is the transcript file of a subagent of a session.
func (s Store) AgentPath(sessionID, agentID string) string {
	return filepath.Join(s.Dir, sessionID, "agent-"+agentID+".jsonl")
}

// Info describes a stored session.
type Info struct {
	ID       string
	Path     string
	Modified time.Time
	Size     int64
}

// List returns the project's sessions, most recently changed first.
// Empty transcript files are left out.
func (s Store) List() ([]Info, error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Info
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		info, err := e.Info()
		if err != nil || info.Size() == 0 {
			// An empty file holds no session (older versions could
			// leave one behind on a full disk).
			continue
		}
		out = append(out, Info{ID: strings.TrimSuffix(name, ".jsonl"), Path: filepath.Join(s.Dir, name), Modified: info.ModTime(), Size: info.Size()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Modified.After(out[j].Modified) })
	return out, nil
}

// AllSessions lists the sessions of every project under configDir, most
// recently changed first (for what spans projects, such as a plans
// directory they share).
func AllSessions(configDir string) ([]Info, error) {
	projects := filepath.Join(configDir, "projects")
	dirs, err := os.ReadDir(projects)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Info
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		list, err := Store{Dir: filepath.Join(projects, d.Name())}.List()
		if err != nil {
			return nil, err
		}
		out = append(out, list...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Modified.After(out[j].Modified) })
	return out, nil
}

// Latest returns the most recently changed session of the project.
func (s Store) Latest() (Info, error) {
	list, err := s.List()
	if err != nil {
		return Info{}, err
	}
	if len(list) == 0 {
		return Info{}, fmt.Errorf("no earlier session in this directory (looked in %s)", s.Dir)
	}
	return list[0], nil
}

// Find locates a session by its id or a unique prefix of it.
func (s Store) Find(id string) (Info, error) {
	list, err := s.List()
	if err != nil {
		return Info{}, err
	}
	var found []Info
	for _, in := range list {
		if in.ID == id {
			return in, nil
		}
		if strings.HasPrefix(in.ID, id) {
			found = append(found, in)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return Info{}, fmt.Errorf("no session %q in this directory (looked in %s)", id, s.Dir)
	}
	return Info{}, fmt.Errorf("session id %q is ambiguous: %d sessions start with it", id, len(found))
}
