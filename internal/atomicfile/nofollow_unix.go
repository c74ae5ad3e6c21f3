//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// A file in a directory that someone else may write (a plans directory
// inside a shared project) cannot be written by name: between any check
// and the write, the other user can put a symbolic link where the file
// was, and a write that follows it changes whatever the link names, with
// ponder's rights. WriteNoFollow and ReadNoFollow therefore resolve the
// directory once, refusing every symbolic link on the way, and then work
// only relative to the directory they opened: the temporary file is made
// there, renamed over the name there (which replaces a link put there
// rather than following it), and the name is checked to hold the very
// file written.

// WriteNoFollow replaces path with data, as Write does, except that no
// symbolic link is followed anywhere in path: a link in a directory on
// the way is an error, and a link at path itself is replaced. Missing
// directories on the way are made (0755), each relative to the one
// opened before it. An existing regular file keeps its permission bits
// and, where ponder may give it, its owner; perm applies to a new one.
func WriteNoFollow(path string, data []byte, perm os.FileMode) (err error) {
	dir, base := filepath.Split(filepath.Clean(path))
	if base == "" || base == "." || base == ".." {
		return fmt.Errorf("%s names no file", path)
	}
	dirfd, err := openDirNoFollow(dir, true)
	if err != nil {
		return &fs.PathError{Op: "write", Path: path, Err: linkError(err)}
	}
	defer unix.Close(dirfd)
	var st unix.Stat_t
	owner := [2]int{-1, -1}
	switch err := unix.Fstatat(dirfd, base, &st, unix.AT_SYMLINK_NOFOLLOW); {
	case err == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR:
		return fmt.Errorf("%s is a directory", path)
	case err == nil && st.Mode&unix.S_IFMT == unix.S_IFREG:
		perm = os.FileMode(st.Mode & 0o777)
		if int(st.Uid) != os.Geteuid() || int(st.Gid) != os.Getegid() {
			owner = [2]int{int(st.Uid), int(st.Gid)}
		}
	case err != nil && !errors.Is(err, unix.ENOENT):
		return &fs.PathError{Op: "write", Path: path, Err: err}
	}
	t := defaultTemps()
	t.cleanAt(dirfd)
	t.journal.note(dir)
	var (
		name string
		fd   = -1
	)
	for range 10 {
		if name, err = t.name(base, os.Getpid()); err != nil {
			return err
		}
		fd, err = unix.Openat(dirfd, name, unix.O_RDWR|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if !errors.Is(err, unix.EEXIST) {
			break
		}
	}
	if err != nil {
		return &fs.PathError{Op: "write", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), name)
	renamed := false
	defer func() {
		f.Close()
		if !renamed {
			_ = unix.Unlinkat(dirfd, name, 0)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return &fs.PathError{Op: "write", Path: path, Err: errors.Unwrap(err)}
	}
	if owner[0] >= 0 {
		_ = f.Chown(owner[0], owner[1]) // only a privileged process can
	}
	if err := f.Chmod(perm); err != nil {
		return &fs.PathError{Op: "write", Path: path, Err: errors.Unwrap(err)}
	}
	if err := f.Sync(); err != nil {
		return &fs.PathError{Op: "write", Path: path, Err: errors.Unwrap(err)}
	}
	var mine unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &mine); err != nil {
		return &fs.PathError{Op: "write", Path: path, Err: err}
	}
	if err := unix.Renameat(dirfd, name, dirfd, base); err != nil {
		return &fs.PathError{Op: "write", Path: path, Err: err}
	}
	renamed = true
	var now unix.Stat_t
	if err := unix.Fstatat(dirfd, base, &now, unix.AT_SYMLINK_NOFOLLOW); err != nil || now.Dev != mine.Dev || now.Ino != mine.Ino {
		return fmt.Errorf("%s was replaced by something else while it was written", path)
	}
	_ = unix.Fsync(dirfd)
	return nil
}

// ReadNoFollow reads path, at most limit bytes, following no symbolic
// link anywhere in it, without blocking on a named pipe, and only when it
// is a regular file.
func ReadNoFollow(path string, limit int64) ([]byte, error) {
	dir, base := filepath.Split(filepath.Clean(path))
	dirfd, err := openDirNoFollow(dir, false)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: linkError(err)}
	}
	defer unix.Close(dirfd)
	fd, err := unix.Openat(dirfd, base, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ELOOP) {
			err = errors.New("it is a symbolic link")
		}
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: errors.New("not a regular file")}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("larger than %d bytes", limit)}
	}
	return data, nil
}

// ErrLinkOnTheWay is the error (under a *fs.PathError) of a NoFollow
// function that met a symbolic link where it follows none.
var ErrLinkOnTheWay = errors.New("a symbolic link is on the way, and none is followed here")

// linkError names the errno a refused link gives (ELOOP, or ENOTDIR for
// a link where a directory was expected) in words.
func linkError(err error) error {
	if errors.Is(err, unix.ELOOP) {
		return ErrLinkOnTheWay
	}
	return err
}

// OpenNoFollow opens the absolute path with flags (O_CLOEXEC is added)
// without following a symbolic link anywhere in it, the last element
// included: through openat2 with RESOLVE_NO_SYMLINKS where the kernel has
// it, else one directory at a time with O_NOFOLLOW. A link on the way is
// an error wrapping ErrLinkOnTheWay. The tools open the canonical path
// the permission decision judged this way, so that a link put on the way
// after the decision cannot send them elsewhere.
func OpenNoFollow(path string, flags int) (*os.File, error) {
	path = filepath.Clean(path)
	if !filepath.IsAbs(path) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: errors.New("not an absolute path")}
	}
	fd, err := openat2NoSymlinks(path, flags)
	if errors.Is(err, unix.ENOSYS) {
		dir, base := filepath.Split(path)
		var dirfd int
		if dirfd, err = openDirNoFollow(dir, false); err == nil {
			fd, err = openatRetry(dirfd, base, flags|unix.O_NOFOLLOW|unix.O_CLOEXEC)
			unix.Close(dirfd)
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: linkError(err)}
	}
	return os.NewFile(uintptr(fd), path), nil
}

// openatRetry is openat, tried again when a signal interrupts it.
func openatRetry(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// openDirNoFollow opens the absolute directory dir without following a
// symbolic link anywhere in it: through openat2 where the kernel has it,
// else one element at a time with O_NOFOLLOW. With create, missing
// directories are made on the way, each relative to its parent's
// descriptor.
func openDirNoFollow(dir string, create bool) (int, error) {
	dir = filepath.Clean(dir)
	if !filepath.IsAbs(dir) {
		return -1, fmt.Errorf("%s is not an absolute path", dir)
	}
	fd, err := openat2NoSymlinks(dir, unix.O_RDONLY|unix.O_DIRECTORY)
	if !errors.Is(err, unix.ENOSYS) && !(create && errors.Is(err, unix.ENOENT)) {
		return fd, err
	}
	if fd, err = unix.Open("/", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err != nil {
		return -1, err
	}
	for _, el := range strings.Split(strings.TrimPrefix(dir, "/"), "/") {
		if el == "" {
			continue
		}
		const flags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
		next, err := openatRetry(fd, el, flags)
		if create && errors.Is(err, unix.ENOENT) {
			if err = unix.Mkdirat(fd, el, 0o755); err == nil || errors.Is(err, unix.EEXIST) {
				next, err = openatRetry(fd, el, flags)
			}
		}
		unix.Close(fd)
		if err != nil {
			return -1, err
		}
		fd = next
	}
	return fd, nil
}

// cleanAt is clean for the directory open at dirfd.
func (t *temps) cleanAt(dirfd int) {
	if t.key == nil {
		return
	}
	dup, err := unix.Dup(dirfd)
	if err != nil {
		return
	}
	d := os.NewFile(uintptr(dup), ".")
	names, _ := d.Readdirnames(-1)
	d.Close()
	for _, name := range names {
		pid, ok := t.owner(name)
		if !ok || pid == os.Getpid() {
			continue
		}
		var st unix.Stat_t
		if unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || int(st.Uid) != os.Geteuid() {
			continue
		}
		if processAlive(pid) && !staleMtime(st) {
			continue
		}
		_ = unix.Unlinkat(dirfd, name, 0)
	}
}

// staleMtime reports whether a leftover was last changed longer ago than
// any write takes.
func staleMtime(st unix.Stat_t) bool {
	sec, nsec := st.Mtim.Unix()
	return time.Since(time.Unix(sec, nsec)) >= staleAge
}
