package checkpoint

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/ponder-agent/ponder/internal/atomicfile"
)

// Report is what a restore did.
type Report struct {
	// Restored are files written back with their earlier content;
	// Removed, files the turns created that are gone again; Unchanged,
	// files that already held their earlier content.
	Restored, Removed, Unchanged []string
	// Failed are files that could not be restored, with why.
	Failed []Failure
	// Commands are shell commands of the rewound turns whose changes
	// could not be restored.
	Commands []Command
}

// Failure is a file a restore left alone, and why.
type Failure struct {
	Path, Reason string
}

// Plan returns the state each file changed in turn n or later had before
// turn n, one entry per file (its earliest record), sorted by path, and
// the shell commands of those turns.
func (s *Store) Plan(n int) ([]File, []Command, error) {
	turns := s.Turns()
	found := false
	first := map[string]File{}
	var cmds []Command
	for _, t := range turns {
		if t.N < n {
			continue
		}
		found = found || t.N == n
		for _, f := range t.Files {
			if _, ok := first[f.Path]; !ok {
				first[f.Path] = f
			}
		}
		cmds = append(cmds, t.Commands...)
	}
	if !found {
		return nil, nil, fmt.Errorf("there is no turn %d to rewind to", n)
	}
	files := make([]File, 0, len(first))
	for _, f := range first {
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, cmds, nil
}

// Restore puts every file changed in turn n or later back as it was
// before turn n. Each file is written atomically; a file is left alone,
// and named in the report, when its content was not kept, when its path
// now leads through a symbolic link or to something that is not a
// regular file, or when writing fails.
func (s *Store) Restore(n int) (Report, error) { return s.RestoreChecked(n, nil) }

// RestoreChecked is Restore with a check of each file before it is
// touched: a file check refuses is left alone and named in the report
// with the check's reason.
func (s *Store) RestoreChecked(n int, check func(path string) error) (Report, error) {
	files, cmds, err := s.Plan(n)
	if err != nil {
		return Report{}, err
	}
	rep := Report{Commands: cmds}
	for _, f := range files {
		if check != nil {
			if err := check(f.Path); err != nil {
				rep.Failed = append(rep.Failed, Failure{Path: f.Path, Reason: err.Error()})
				continue
			}
		}
		what, err := s.restore(f)
		switch {
		case err != nil:
			rep.Failed = append(rep.Failed, Failure{Path: f.Path, Reason: err.Error()})
		case what == "removed":
			rep.Removed = append(rep.Removed, f.Path)
		case what == "unchanged":
			rep.Unchanged = append(rep.Unchanged, f.Path)
		default:
			rep.Restored = append(rep.Restored, f.Path)
		}
	}
	return rep, nil
}

// restore puts one file back; it says "restored", "removed" or
// "unchanged".
func (s *Store) restore(f File) (string, error) {
	if f.Reason != "" {
		return "", fmt.Errorf("its earlier content was not kept (%s)", f.Reason)
	}
	if !filepath.IsAbs(f.Path) || filepath.Clean(f.Path) != f.Path {
		return "", errors.New("the recorded path is not absolute and clean")
	}
	if real := realPath(f.Path); real != f.Path {
		return "", fmt.Errorf("the path now leads through a symbolic link (to %s); not followed", real)
	}
	info, err := os.Lstat(f.Path)
	exists := err == nil
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return "", err
	case exists && !info.Mode().IsRegular():
		return "", fmt.Errorf("it is now a %s, not a regular file", kindOf(info.Mode()))
	}
	if f.Absent {
		if !exists {
			return "unchanged", nil
		}
		if err := os.Remove(f.Path); err != nil {
			return "", err
		}
		return "removed", nil
	}
	data, err := s.blob(f.Blob)
	if err != nil {
		return "", err
	}
	if exists {
		if cur, err := os.ReadFile(f.Path); err == nil && bytes.Equal(cur, data) {
			return "unchanged", nil
		}
	}
	if err := atomicfile.Write(f.Path, data, 0o644); err != nil {
		return "", err
	}
	return "restored", nil
}

// save keeps what path holds now, in the blob directory.
func (s *Store) save(path string) File {
	f := File{Path: path}
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f.Absent = true
		return f
	case err != nil:
		f.Reason = err.Error()
		return f
	case !info.Mode().IsRegular():
		f.Reason = "not a regular file"
		return f
	case info.Size() > MaxFileSize:
		f.Reason = fmt.Sprintf("larger than %d MB", MaxFileSize>>20)
		return f
	}
	data, err := os.ReadFile(path)
	if err != nil {
		f.Reason = err.Error()
		return f
	}
	sum := sha256.Sum256(data)
	name := hex.EncodeToString(sum[:])
	p := filepath.Join(s.blobs, name)
	if _, err := os.Stat(p); err != nil {
		if err := atomicfile.Write(p, data, 0o600); err != nil {
			f.Reason = "could not keep a copy: " + err.Error()
			return f
		}
	}
	f.Blob = name
	return f
}

// blob reads saved content, checking it is what its name says.
func (s *Store) blob(name string) ([]byte, error) {
	if !validBlob(name) {
		return nil, fmt.Errorf("the saved content has a malformed name %q", name)
	}
	data, err := os.ReadFile(filepath.Join(s.blobs, name))
	if err != nil {
		return nil, fmt.Errorf("the saved content is missing: %w", err)
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != name {
		return nil, errors.New("the saved content is damaged")
	}
	return data, nil
}

// validBlob reports whether name is a lower-case hex SHA-256, and so
// cannot name anything outside the blob directory.
func validBlob(name string) bool {
	if len(name) != 64 {
		return false
	}
	for _, r := range name {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}

// realPath is path with every symbolic link resolved, for paths whose
// last parts do not exist yet too: the deepest existing directory is
// resolved and the rest appended.
func realPath(path string) string {
	path = filepath.Clean(path)
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	dir, rest := path, ""
	for {
		parent := filepath.Dir(dir)
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(r, rest)
		}
		if parent == filepath.Dir(parent) {
			return path
		}
	}
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m.IsDir():
		return "directory"
	default:
		return "special file"
	}
}
