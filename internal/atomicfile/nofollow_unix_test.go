//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// WriteNoFollow never writes through a link: one at the name is replaced,
// one in a directory on the way is an error, and the files they name stay
// as they were.
func TestWriteNoFollow(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim.conf")
	os.WriteFile(victim, []byte("root only\n"), 0o600)

	p := filepath.Join(dir, "plan.md")
	if err := WriteNoFollow(p, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(p, 0o640)
	if err := WriteNoFollow(p, []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(p); string(data) != "two\n" {
		t.Errorf("content %q", data)
	}
	if info, _ := os.Stat(p); info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the old file's 0640", info.Mode())
	}

	link := filepath.Join(dir, "link.md")
	os.Symlink(victim, link)
	if err := WriteNoFollow(link, []byte("plan\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Lstat(link); !info.Mode().IsRegular() {
		t.Errorf("the link was not replaced by a file: %v", info.Mode())
	}

	linkedDir := filepath.Join(dir, "linked")
	os.Symlink(filepath.Dir(victim), linkedDir)
	if err := WriteNoFollow(filepath.Join(linkedDir, "victim.conf"), []byte("plan\n"), 0o644); err == nil {
		t.Error("wrote through a linked directory")
	}
	if data, _ := os.ReadFile(victim); string(data) != "root only\n" {
		t.Fatalf("the victim changed: %q", data)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// Another user who can write the directory swaps the file for a link to
// a file of ponder's user, as fast as it can, while ponder writes: the
// linked file never changes.
func TestWriteNoFollowRace(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim.conf")
	os.WriteFile(victim, []byte("root only\n"), 0o600)
	p := filepath.Join(dir, "plan.md")
	var stop atomic.Bool
	done := make(chan int)
	go func() {
		swaps := 0
		tmp := p + ".swap"
		for !stop.Load() {
			os.Remove(tmp)
			if os.Symlink(victim, tmp) == nil && os.Rename(tmp, p) == nil {
				swaps++
			}
		}
		done <- swaps
	}()
	deadline := time.Now().Add(time.Second)
	writes := 0
	for time.Now().Before(deadline) {
		if WriteNoFollow(p, []byte("plan\n"), 0o644) == nil {
			writes++
		}
	}
	stop.Store(true)
	swaps := <-done
	t.Logf("%d writes against %d swaps", writes, swaps)
	if data, _ := os.ReadFile(victim); string(data) != "root only\n" {
		t.Fatalf("the victim changed: %q", data)
	}
	if writes == 0 || swaps == 0 {
		t.Fatalf("no race: %d writes, %d swaps", writes, swaps)
	}
}

// ReadNoFollow reads regular files only, never through a link, and never
// waits for a named pipe's writer.
func TestReadNoFollow(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "plan.md")
	os.WriteFile(p, []byte("the plan\n"), 0o644)
	if data, err := ReadNoFollow(p, 1<<20); err != nil || string(data) != "the plan\n" {
		t.Fatalf("%q %v", data, err)
	}
	if _, err := ReadNoFollow(p, 3); err == nil {
		t.Error("read past the limit")
	}
	link := filepath.Join(dir, "link.md")
	os.Symlink(p, link)
	if _, err := ReadNoFollow(link, 1<<20); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("through a link: %v", err)
	}
	fifo := filepath.Join(dir, "fifo.md")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() { _, err := ReadNoFollow(fifo, 1<<20); got <- err }()
	select {
	case err := <-got:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("a named pipe: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading a named pipe blocked")
	}
}

// OpenNoFollow refuses a link anywhere in the path, the last element
// included, and WriteNoFollow makes missing directories without
// following a link put among them.
func TestOpenNoFollowAndMissingDirs(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "key"), []byte("secret"), 0o600)
	os.Symlink(outside, filepath.Join(dir, "via"))
	os.Symlink(filepath.Join(outside, "key"), filepath.Join(dir, "key"))
	for _, p := range []string{filepath.Join(dir, "via", "key"), filepath.Join(dir, "key")} {
		if f, err := OpenNoFollow(p, os.O_RDONLY); err == nil {
			f.Close()
			t.Errorf("OpenNoFollow(%s) opened through a link", p)
		} else if !strings.Contains(err.Error(), ErrLinkOnTheWay.Error()) {
			t.Errorf("OpenNoFollow(%s): %v, want the link named", p, err)
		}
	}
	if err := WriteNoFollow(filepath.Join(dir, "via", "new", "f"), []byte("x"), 0o644); err == nil {
		t.Error("WriteNoFollow wrote below a link")
	}
	if _, err := os.Stat(filepath.Join(outside, "new")); err == nil {
		t.Error("a directory was made through a link")
	}
	p := filepath.Join(dir, "a", "b", "f")
	if err := WriteNoFollow(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(p); string(data) != "x" {
		t.Errorf("content %q", data)
	}
}
