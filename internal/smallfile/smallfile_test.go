//go:build unix

package smallfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadRefusesWhatIsNotASmallRegularFile(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	os.WriteFile(plain, []byte("hello"), 0o644)
	if got, err := Read(plain, 5); err != nil || string(got) != "hello" {
		t.Fatalf("Read = %q, %v", got, err)
	}
	if _, err := Read(plain, 4); err == nil || !strings.Contains(err.Error(), "larger than 4") {
		t.Errorf("a file over the limit: %v", err)
	}
	if got, err := Prefix(plain, 2); err != nil || string(got) != "hel" {
		t.Errorf("Prefix = %q, %v", got, err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	os.Symlink("/dev/zero", zero)
	for _, p := range []string{fifo, zero, dir} {
		if _, err := Read(p, 1<<20); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Read(%s): %v", p, err)
		}
	}
}
