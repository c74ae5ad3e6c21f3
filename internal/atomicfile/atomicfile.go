// Package atomicfile writes files so that a reader, or a process killed
// half-way, sees either the old content or the new one, never a mix.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces the contents of path with data so that a reader
// sees the old contents or the new ones, never a mix: it writes a
// temporary file in the same directory, flushes it to disk and renames it
// over path. Missing parent directories are created (mode 0755).
//
// An existing file keeps its permission bits (and, where the platform
// allows, its owner); perm applies only to a new file, exactly, without
// the umask. When path is a symbolic link, the file it points to is
// replaced and the link stays. A directory at path is an error. On
// failure no temporary file is left behind, and the error names path, not
// the temporary file; temporary files that killed processes left in the
// directory are removed (see CreateTemp).
func Write(path string, data []byte, perm os.FileMode) error {
	target, err := resolveLink(path)
	if err != nil {
		return err
	}
	info, err := os.Stat(target)
	switch {
	case err == nil && info.IsDir():
		return fmt.Errorf("%s is a directory", target)
	case err == nil:
		perm = info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	case !errors.Is(err, fs.ErrNotExist):
		return err
	default:
		info = nil
	}
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := write(dir, target, data, perm, info); err != nil {
		return hideTemp(target, err)
	}
	syncDir(dir)
	return nil
}

// write puts data in a temporary file in dir and renames it over target.
func write(dir, target string, data []byte, perm os.FileMode, info fs.FileInfo) error {
	f, err := CreateTemp(dir, target)
	if err != nil {
		return err
	}
	tmp := f.Name()
	done := false
	defer func() {
		if !done {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if info != nil {
		keepOwner(f, info) // before Chmod: a change of owner can clear set-id bits
	}
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, target); err != nil {
		return err
	}
	done = true
	return nil
}

// hideTemp rewrites an error about the temporary file as one about the
// target: the temporary name means nothing to whoever reads the error (a
// model, say), and is better not shown to it.
func hideTemp(target string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: "write", Path: target, Err: pe.Err}
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return &fs.PathError{Op: "write", Path: target, Err: le.Err}
	}
	return err
}

// resolveLink follows symbolic links at path to the file they name, which
// need not exist yet.
func resolveLink(path string) (string, error) {
	for range 40 {
		info, err := os.Lstat(path)
		if err != nil || info.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return "", fmt.Errorf("too many levels of symbolic links at %s", path)
}

// syncDir flushes a directory entry change to disk where that is possible;
// failures only weaken durability, so they are ignored.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
