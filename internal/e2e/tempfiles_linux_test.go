package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// killOnCreate waits until a file whose name contains marker is created
// in dir, then kills pid with SIGKILL. It reports the name.
func killOnCreate(t *testing.T, dir, marker string, pid int) (string, error) {
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC)
	if err != nil {
		return "", err
	}
	defer syscall.Close(fd)
	if _, err := syscall.InotifyAddWatch(fd, dir, syscall.IN_CREATE); err != nil {
		return "", err
	}
	buf := make([]byte, 64<<10)
	for {
		n, err := syscall.Read(fd, buf)
		if err != nil {
			return "", err
		}
		for off := 0; off+syscall.SizeofInotifyEvent <= n; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
			nameBytes := buf[off+syscall.SizeofInotifyEvent : off+syscall.SizeofInotifyEvent+int(ev.Len)]
			name := string(bytes.TrimRight(nameBytes, "\x00"))
			off += syscall.SizeofInotifyEvent + int(ev.Len)
			if strings.Contains(name, marker) {
				syscall.Kill(pid, syscall.SIGKILL)
				return name, nil
			}
		}
	}
}

// A process killed in the middle of a Write leaves its temporary file;
// the next write into that directory removes it, and leaves alone a
// repository's file that only looks like one.
func TestKilledWriteLeftoverIsCleanedUp(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		big := strings.Repeat("a line of the big file\n", 200_000)
		w := newWorld(t, api,
			fakemodel.Reply{Name: "big", When: fakemodel.Match{LastUser: "write the big file"}, Times: -1, ToolCalls: tools(call{Name: "Write",
				Input: map[string]any{"file_path": "big.txt", "content": big}})},
			fakemodel.Reply{Name: "small", When: fakemodel.Match{LastUser: "write a small file"}, ToolCalls: tools(call{Name: "Write",
				Input: map[string]any{"file_path": "small.txt", "content": "small\n"}})},
			fakemodel.Reply{Name: "done", When: fakemodel.Match{ToolResult: "small.txt"}, Text: "written"},
		)
		lookalike := w.write(fmt.Sprintf(".notes.txt.ponder-%d-0123456789abcdef-0123456789abcdef.tmp", 999999), "the repository's own file\n")

		leftover := filepath.Base(killDuringWrite(t, w, "write the big file", w.dir, ".big.txt.ponder-"))
		if got := w.read("big.txt"); got != "<missing>" && got != big {
			t.Fatal("big.txt holds part of the content")
		}

		w.mustRun(0, "", "-p", "write a small file", "--permission-mode", "acceptEdits")
		if w.read("small.txt") != "small\n" {
			t.Fatal("the small file was not written")
		}
		if _, err := os.Stat(filepath.Join(w.dir, leftover)); !os.IsNotExist(err) {
			t.Errorf("the leftover %s is still there", leftover)
		}
		if data, err := os.ReadFile(lookalike); err != nil || string(data) != "the repository's own file\n" {
			t.Errorf("the repository's look-alike file was touched: %v", err)
		}
		for _, r := range w.srv.Requests() {
			if r.ContainsText(".ponder-") && !r.ContainsText(lookalike) {
				t.Error("the model was told a temporary file's name")
			}
		}
	})
}

// killDuringWrite runs ponder with prompt, whose reply writes a big file,
// and kills it with SIGKILL as the write's temporary file (named with
// marker) appears in the file's directory. It returns the temporary
// file's path, or skips the test when every write finished first.
func killDuringWrite(t *testing.T, w *world, prompt, dir, marker string) string {
	t.Helper()
	for attempt := 0; attempt < 5; attempt++ {
		p := w.spawn("-p", prompt, "--permission-mode", "acceptEdits")
		// Should ponder never write, this file ends the wait.
		sentinel := filepath.Join(dir, marker+"sentinel")
		timer := time.AfterFunc(30*time.Second, func() { os.WriteFile(sentinel, nil, 0o600) })
		name, err := killOnCreate(t, dir, marker, p.cmd.Process.Pid)
		timer.Stop()
		if err != nil {
			t.Fatal(err)
		}
		p.wait(t)
		if filepath.Join(dir, name) == sentinel {
			t.Fatalf("ponder never wrote; stderr:\n%s", p.stderr.String())
		}
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return filepath.Join(dir, name)
		}
	}
	t.Skip("every write finished before the kill; nothing left to clean up")
	return ""
}

// A write's temporary file left by a ponder killed with SIGKILL is
// removed as the next ponder starts, even when that one writes nothing
// in its directory; a repository's look-alike file stays.
func TestKilledWriteLeftoverIsCleanedAtStart(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		big := strings.Repeat("a line of the big file\n", 200_000)
		w := newWorld(t, api,
			fakemodel.Reply{Name: "big", When: fakemodel.Match{LastUser: "write the big file"}, Times: -1, ToolCalls: tools(call{Name: "Write",
				Input: map[string]any{"file_path": "deep/big.txt", "content": big}})},
			fakemodel.Reply{Name: "hello", When: fakemodel.Match{LastUser: "hello"}, Text: "hi"},
		)
		lookalike := w.write(fmt.Sprintf("deep/.notes.txt.ponder-%d-0123456789abcdef-0123456789abcdef.tmp", 999999), "the repository's own file\n")
		leftover := killDuringWrite(t, w, "write the big file", filepath.Join(w.dir, "deep"), ".big.txt.ponder-")

		w.mustRun(0, "", "-p", "hello")
		if _, err := os.Stat(leftover); !os.IsNotExist(err) {
			t.Errorf("the leftover %s is still there after a new start", leftover)
		}
		if data, err := os.ReadFile(lookalike); err != nil || string(data) != "the repository's own file\n" {
			t.Errorf("the repository's look-alike file was touched: %v", err)
		}
	})
}
