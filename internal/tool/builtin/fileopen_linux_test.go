//go:build linux

package builtin

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ponder-agent/ponder/internal/tool"
)

// The file tools open only regular files, judged on the opened
// descriptor, without blocking; pseudo files are read a bounded amount;
// files whose reading takes something away are refused.
func TestOpenForReading(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain.txt")
	os.WriteFile(plain, []byte("text\n"), 0o644)
	toFifo := filepath.Join(dir, "to-fifo")
	os.Symlink(fifo, toFifo)
	toKmsg := filepath.Join(dir, "to-kmsg")
	os.Symlink("/proc/kmsg", toKmsg)

	for path, want := range map[string]string{
		fifo:        "named pipe",
		toFifo:      "named pipe",
		"/dev/null": "device",
		dir:         "directory",
	} {
		done := make(chan error, 1)
		go func() {
			f, err := openForReading(path)
			if err == nil {
				f.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			var r *refusedFile
			if !errors.As(err, &r) || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want a refusal naming %q", path, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("opening %s blocked", path)
		}
	}
	f, err := openForReading(plain)
	if err != nil || f.pseudo || f.maxBytes() != fileMaxBytes {
		t.Fatalf("plain file: %v %+v", err, f)
	}
	f.Close()
	f, err = openForReading("/proc/self/status")
	if err != nil || !f.pseudo || f.maxBytes() != pseudoMaxBytes {
		t.Fatalf("/proc/self/status: %v %+v", err, f)
	}
	f.Close()
	for _, p := range []string{"/proc/kmsg", toKmsg} {
		f, err := openForReading(p)
		if err == nil {
			f.Close()
			t.Errorf("%s opened", p)
			continue
		}
		var r *refusedFile
		if os.Geteuid() == 0 && (!errors.As(err, &r) || !strings.Contains(err.Error(), "kernel log")) {
			t.Errorf("%s: %v, want a refusal naming the kernel log", p, err)
		}
	}
}

// Read stops at its byte limit and says so.
func TestReadStopsAtItsLimit(t *testing.T) {
	text := strings.Repeat("a line of text\n", 1000)
	c := &readCall{path: "big.txt", offset: 1, limit: 2000}
	lr := &limitedReader{r: strings.NewReader(text), n: 1500}
	res, err := c.readLines(context.Background(), bufio.NewReader(lr), lr)
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	if !strings.Contains(res.Content, "stops after the first") || strings.Contains(res.Content, "   101\t") {
		t.Errorf("content:\n%s", res.Content[max(0, len(res.Content)-300):])
	}
	c.offset = 500
	lr = &limitedReader{r: strings.NewReader(text), n: 1500}
	res, _ = c.readLines(context.Background(), bufio.NewReader(lr), lr)
	if !res.IsError || !strings.Contains(res.Content, "lies beyond that") {
		t.Errorf("offset past the limit: %+v", res)
	}
}

// A tool's work that blocks does not hold up its caller once ctx is done.
func TestUntilDoneReturnsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	defer close(release)
	got := make(chan string, 1)
	go func() {
		got <- untilDone(ctx, "Read", func() tool.Result { <-release; return tool.Result{} }).Content
	}()
	cancel()
	select {
	case s := <-got:
		if !strings.Contains(s, "interrupted") {
			t.Errorf("result %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("untilDone waited for the blocked work")
	}
}
