package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/ponder-agent/ponder/internal/atomicfile"
	"github.com/ponder-agent/ponder/internal/textdiff"
)

// Change is one file ponder changed in the session's live turns: what it
// held before the first change and what it holds now, as a unified diff.
type Change struct {
	Path string
	// Diff is the change, with the path (as name gives it) in its
	// headers; "" when nothing differs now or it cannot be shown.
	Diff string
	// Note says why the change is not shown ("" when it is).
	Note string
}

// Changes compares every file changed in the live turns, from its
// content before the first change (the earliest record) to what is on
// disk now, sorted by path. name turns a path into the name the diff
// shows; files whose net change is nothing are left out. Nothing is
// followed through a link: a path that now leads to something other
// than a regular file is named, not read.
func (s *Store) Changes(name func(path string) string) []Change {
	turns := s.Turns()
	if len(turns) == 0 {
		return nil
	}
	files, _, err := s.Plan(turns[0].N)
	if err != nil {
		return nil
	}
	var out []Change
	for _, f := range files {
		c := Change{Path: f.Path}
		before, after, err := s.beforeAfter(f)
		switch {
		case err != nil:
			c.Note = err.Error()
		case before == after:
			continue
		case strings.IndexByte(before, 0) >= 0 || strings.IndexByte(after, 0) >= 0:
			c.Note = "binary content"
		default:
			n := name(f.Path)
			c.Diff = textdiff.Unified(n, n, before, after, 3)
		}
		out = append(out, c)
	}
	return out
}

// beforeAfter reads a file's saved earlier content and its content now
// ("" for a file that did not or does not exist).
func (s *Store) beforeAfter(f File) (before, after string, err error) {
	if f.Reason != "" {
		return "", "", fmt.Errorf("its earlier content was not kept (%s)", f.Reason)
	}
	if !f.Absent {
		data, err := s.blob(f.Blob)
		if err != nil {
			return "", "", err
		}
		before = string(data)
	}
	now, err := readNow(f.Path)
	return before, now, err
}

// readNow reads a regular file's content without following a link, up to MaxFileSize; a missing file is empty.
func readNow(path string) (string, error) {
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	case err != nil:
		return "", err
	case !info.Mode().IsRegular():
		return "", fmt.Errorf("it is now a %s", kindOf(info.Mode()))
	case info.Size() > MaxFileSize:
		return "", fmt.Errorf("larger than %d MB", MaxFileSize>>20)
	}
	if real := realPath(path); real != path {
		return "", fmt.Errorf("the path now leads through a symbolic link (to %s); not followed", real)
	}
	data, err := atomicfile.ReadNoFollow(path, MaxFileSize)
	if err != nil {
		return "", err
	}
	return string(data), nil
}
