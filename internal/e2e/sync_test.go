package e2e

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fifo makes a named pipe in the project. A command ponder runs can write
// to it to tell the test it got that far: readFifo blocks until then.
func (w *world) fifo(rel string) string {
	w.t.Helper()
	p := filepath.Join(w.dir, rel)
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		w.t.Fatal(err)
	}
	return p
}

// readFifo waits for a writer of the named pipe and returns what it
// wrote, trimmed; it fails the test after a generous limit.
func readFifo(t *testing.T, path string) string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(path) // blocks until a writer opens it
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		defer f.Close()
		data, _ := io.ReadAll(f)
		got <- strings.TrimSpace(string(data))
	}()
	select {
	case s := <-got:
		return s
	case <-time.After(30 * time.Second):
		// Unblock the reader so that its goroutine ends.
		if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		t.Fatalf("nothing was written to %s", path)
		return ""
	}
}

// waitGone waits until process pid no longer exists (the kernel reaps a
// killed process a moment after the signal).
func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) is still alive", what, pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
