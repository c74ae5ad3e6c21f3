//go:build linux

package proctree

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pidsCgroup makes a cgroup of the pids controller that lets at most max
// processes live in it, removed when the test ends, and returns its
// directory; "" when this machine offers none to the test (not root, no
// pids controller). A test that starts a process forking without end
// moves it there, so that a failure cannot exhaust the machine's pids.
func pidsCgroup(t *testing.T, max int) string {
	t.Helper()
	var root string
	switch {
	case writable("/sys/fs/cgroup/pids"):
		root = "/sys/fs/cgroup/pids" // cgroup v1
	case fileHas("/sys/fs/cgroup/cgroup.controllers", "pids") && writable("/sys/fs/cgroup"):
		root = "/sys/fs/cgroup"
	default:
		return ""
	}
	dir := filepath.Join(root, fmt.Sprintf("ponder-test-%d-%s", os.Getpid(), filepath.Base(t.TempDir())))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return ""
	}
	if err := os.WriteFile(filepath.Join(dir, "pids.max"), []byte(fmt.Sprint(max)), 0o644); err != nil {
		os.Remove(dir)
		return ""
	}
	t.Cleanup(func() { os.Remove(dir) })
	return dir
}

func writable(dir string) bool {
	f, err := os.CreateTemp(dir, ".probe-")
	if err == nil {
		name := f.Name()
		f.Close()
		os.Remove(name)
		return true
	}
	// A cgroup directory takes no files, only directories.
	d, err := os.MkdirTemp(dir, "ponder-probe-")
	if err != nil {
		return false
	}
	os.Remove(d)
	return true
}

func fileHas(path, word string) bool {
	data, err := os.ReadFile(path)
	return err == nil && slices.Contains(strings.Fields(string(data)), word)
}
