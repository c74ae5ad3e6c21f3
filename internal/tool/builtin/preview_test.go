package builtin

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/tool"
)

func TestWriteAndEditPreviewTheLinesTheyChange(t *testing.T) {
	env := newEnv(t)
	put(t, env.Dir, map[string]string{"src/app.go": "package app\n\nfunc A() {}\n"})
	runOK(t, NewRead(), env, map[string]any{"file_path": "src/app.go"})

	c := prepare(t, NewEdit(), env, map[string]any{"file_path": "src/app.go", "old_string": "func A() {}", "new_string": "func A() int { return 1 }"})
	path, diff := c.(tool.Previewer).Preview()
	if path != filepath.Join("src", "app.go") || !strings.Contains(diff, "-func A() {}\n+func A() int { return 1 }\n") {
		t.Fatalf("edit preview %q:\n%s", path, diff)
	}
	c = prepare(t, NewWrite(), env, map[string]any{"file_path": "new.txt", "content": "one\ntwo\n"})
	if path, diff = c.(tool.Previewer).Preview(); path != "new.txt" || !strings.Contains(diff, "+one\n+two\n") {
		t.Fatalf("write preview %q:\n%s", path, diff)
	}
	// A file outside the project keeps its full path.
	outside := filepath.Join(t.TempDir(), "x.txt")
	c = prepare(t, NewWrite(), env, map[string]any{"file_path": outside, "content": "x"})
	if path, _ = c.(tool.Previewer).Preview(); path != outside {
		t.Fatalf("outside path shown as %q", path)
	}
	// Nothing was written by previewing.
	if _, err := os.Stat(filepath.Join(env.Dir, "new.txt")); err == nil {
		t.Fatal("a preview wrote the file")
	}
}

// A model may name a FIFO: previewing must neither block nor read it.
func TestPreviewNeverBlocksOnAFIFO(t *testing.T) {
	env := newEnv(t)
	fifo := filepath.Join(env.Dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	c := prepare(t, NewWrite(), env, map[string]any{"file_path": "pipe", "content": "x"})
	done := make(chan string, 1)
	go func() { _, d := c.(tool.Previewer).Preview(); done <- d }()
	select {
	case d := <-done:
		if d != "" {
			t.Fatalf("a FIFO was diffed: %q", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Preview blocked on a FIFO")
	}
}

func TestPreviewOfHugeDiffIsCut(t *testing.T) {
	env := newEnv(t)
	c := prepare(t, NewWrite(), env, map[string]any{"file_path": "big.txt", "content": strings.Repeat("line\n", 2000)})
	_, d := c.(tool.Previewer).Preview()
	if n := strings.Count(d, "\n"); n > maxPreviewLines+1 || !strings.Contains(d, "more lines of diff") {
		t.Fatalf("diff of %d lines", n)
	}
}
