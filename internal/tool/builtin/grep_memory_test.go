//go:build linux

package builtin

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/ponder-agent/ponder/internal/tool"
)

// writeLargeFile writes mb megabytes of log-like lines to path; every
// 100,000th line holds the marker "needleXYZ".
func writeLargeFile(tb testing.TB, path string, mb int) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	written := 0
	for i := 0; written < mb<<20; i++ {
		line := fmt.Sprintf("2026-11-25T10:%02d:%02d request id=%08d status=200 path=/api/items/%d took=%dms\n", i/60%60, i%60, i, i%977, i%313)
		if i%100_000 == 99_999 {
			line = fmt.Sprintf("2026-11-25T10:00:00 needleXYZ found at line %d\n", i+1)
		}
		n, _ := bw.WriteString(line)
		written += n
	}
	if err := bw.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}

// TestGrepMemoryHelper is not a test: TestGrepLargeFileMemory runs it in a
// child process, so that the peak memory measured is Grep's alone.
func TestGrepMemoryHelper(t *testing.T) {
	path := os.Getenv("PONDER_GREP_MEMORY_FILE")
	if path == "" {
		t.Skip("helper process only")
	}
	var in map[string]any
	if err := json.Unmarshal([]byte(os.Getenv("PONDER_GREP_MEMORY_INPUT")), &in); err != nil {
		t.Fatal(err)
	}
	in["path"] = path
	data, _ := json.Marshal(in)
	env := &tool.Env{Dir: filepath.Dir(path), Files: tool.NewFileTracker()}
	call, err := NewGrep().Prepare(env, data)
	if err != nil {
		t.Fatal(err)
	}
	res := call.Run(context.Background())
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	out, _ := json.Marshal(map[string]any{"maxrss_kb": ru.Maxrss, "content": res.Content, "error": res.IsError})
	fmt.Println("RESULT " + string(out))
}

// grepPeak runs Grep with in on the file at path in a child process and
// returns its peak resident memory in MB and the result text.
func grepPeak(t *testing.T, path string, in map[string]any) (int, string) {
	t.Helper()
	input, _ := json.Marshal(in)
	cmd := exec.Command(os.Args[0], "-test.run=^TestGrepMemoryHelper$")
	cmd.Env = append(os.Environ(), "PONDER_GREP_MEMORY_FILE="+path, "PONDER_GREP_MEMORY_INPUT="+string(input))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(l, "RESULT "); ok {
			var r struct {
				MaxRSS  int    `json:"maxrss_kb"`
				Content string `json:"content"`
				Error   bool   `json:"error"`
			}
			if err := json.Unmarshal([]byte(rest), &r); err != nil {
				t.Fatal(err)
			}
			if r.Error {
				t.Fatalf("Grep failed: %s", r.Content)
			}
			return r.MaxRSS / 1024, r.Content
		}
	}
	t.Fatalf("no result from the helper:\n%s", out)
	return 0, ""
}

// Grep on a named file streams it: the peak memory stays bounded however
// large the file (PONDER_GREP_MEMORY_MB sets the size, default 160). The
// bound is on what searching the large file takes beyond searching a
// small one, so that the test binary's own memory (much larger under the
// race detector) does not count.
func TestGrepLargeFileMemory(t *testing.T) {
	mb := 160
	if raceEnabled {
		mb = 48 // still streamed, and quicker under the race detector
	}
	if s := os.Getenv("PONDER_GREP_MEMORY_MB"); s != "" {
		mb, _ = strconv.Atoi(s)
	}
	dir := t.TempDir()
	small := filepath.Join(dir, "small.log")
	writeLargeFile(t, small, 1)
	path := filepath.Join(dir, "big.log")
	writeLargeFile(t, path, mb)
	base, _ := grepPeak(t, small, map[string]any{"pattern": "status", "output_mode": "content"})
	const limit = 32 // MB beyond the small file's search: buffers and output
	cases := []struct {
		name  string
		in    map[string]any
		check func(string) bool
	}{
		{"files", map[string]any{"pattern": "needleXYZ"}, func(s string) bool { return strings.Contains(s, "Found 1 file") }},
		{"count", map[string]any{"pattern": "needleXYZ", "output_mode": "count"}, func(s string) bool { return strings.Contains(s, "big.log:") }},
		{"content", map[string]any{"pattern": "needleXYZ", "output_mode": "content", "-B": 1}, func(s string) bool {
			return strings.Contains(s, ":100000:2026-11-25T10:00:00 needleXYZ found at line 100000")
		}},
		{"every line", map[string]any{"pattern": "status", "output_mode": "content"}, func(s string) bool { return strings.Contains(s, "Output cut") }},
		{"no match", map[string]any{"pattern": "absent[0-9]+word"}, func(s string) bool { return strings.Contains(s, "No matches") }},
		{"multiline", map[string]any{"pattern": `needleXYZ[^\n]*\n2026`, "multiline": true, "output_mode": "count"}, func(s string) bool {
			return strings.Contains(s, "big.log:") && strings.Contains(s, "searched in windows")
		}},
	}
	// One line as long as the file, with the marker in the middle.
	oneLine := filepath.Join(dir, "one-line.txt")
	f, err := os.Create(oneLine)
	if err != nil {
		t.Fatal(err)
	}
	chunk := []byte(strings.Repeat("x", 1<<20))
	for i := range mb {
		if i == mb/2 {
			f.WriteString("needleXYZ")
		}
		f.Write(chunk)
	}
	f.Close()
	for _, c := range []struct {
		name string
		in   map[string]any
	}{
		{"one huge line", map[string]any{"pattern": "needleXYZ", "output_mode": "count"}},
		{"one huge line, multiline", map[string]any{"pattern": `x+needleXYZ`, "multiline": true, "output_mode": "count"}},
	} {
		peak, out := grepPeak(t, oneLine, c.in)
		t.Logf("%s: peak RSS %d MB on a %d MB file (%d MB on a 1 MB file)", c.name, peak, mb, base)
		if !strings.Contains(out, "one-line.txt:1") || !strings.Contains(out, "in pieces") {
			t.Errorf("%s: unexpected result:\n%.500s", c.name, out)
		}
		if peak-base > limit {
			t.Errorf("%s: peak RSS %d MB, %d MB on a 1 MB file; want at most %d MB more", c.name, peak, base, limit)
		}
	}
	for _, c := range cases {
		peak, out := grepPeak(t, path, c.in)
		t.Logf("%s: peak RSS %d MB on a %d MB file (%d MB on a 1 MB file)", c.name, peak, mb, base)
		if !c.check(out) {
			t.Errorf("%s: unexpected result:\n%.500s", c.name, out)
		}
		if peak-base > limit {
			t.Errorf("%s: peak RSS %d MB on a %d MB file, %d MB on a 1 MB one; want at most %d MB more", c.name, peak, mb, base, limit)
		}
	}
}
