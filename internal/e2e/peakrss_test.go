package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var (
	peakRSSOnce sync.Once
	peakRSSBin  string
	peakRSSErr  error
)

// spawnMeasured starts ponder like spawn, through testdata/peakrss, so
// that p.peakMB reports the peak memory of ponder alone. (The peak the
// kernel reports for a child of the test itself includes the test's own
// memory, which the child shares until it starts ponder.)
func (w *world) spawnMeasured(args ...string) *spawned {
	w.t.Helper()
	return w.spawnMeasuredWith("", args...)
}

// spawnMeasuredWith is spawnMeasured with stdin as standard input.
func (w *world) spawnMeasuredWith(stdin string, args ...string) *spawned {
	w.t.Helper()
	peakRSSOnce.Do(func() {
		peakRSSBin = filepath.Join(filepath.Dir(ponderBin), "peakrss")
		out, err := exec.Command("go", "build", "-o", peakRSSBin, "./testdata/peakrss").CombinedOutput()
		if err != nil {
			peakRSSErr = &buildError{err, string(out)}
		}
	})
	if peakRSSErr != nil {
		w.t.Fatal(peakRSSErr)
	}
	report := filepath.Join(w.t.TempDir(), "peak")
	p := &spawned{cmd: exec.Command(peakRSSBin, append([]string{ponderBin}, args...)...), peakFile: report}
	p.cmd.Dir = w.dir
	p.cmd.Env = append(w.env(), "PEAKRSS_OUT="+report)
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	p.cmd.Stdin = strings.NewReader(stdin)
	if err := p.cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
	return p
}

// buildError is a failed build with its output.
type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "building peakrss: " + e.err.Error() + "\n" + e.out }

// peakMB is the peak resident memory of a process started with
// spawnMeasured, once it has ended.
func (p *spawned) peakMB(t *testing.T) int {
	t.Helper()
	data, err := os.ReadFile(p.peakFile)
	if err != nil {
		t.Fatalf("no peak memory reported: %v", err)
	}
	kb, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatalf("peak memory report %q: %v", data, err)
	}
	return kb >> 10
}

// ponderPID is the process id of ponder itself: for a measured process,
// the child of the wrapper, or 0 while it has not started.
func (p *spawned) ponderPID() int {
	pid := p.cmd.Process.Pid
	if p.peakFile == "" {
		return pid
	}
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "task", strconv.Itoa(pid), "children"))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return 0
	}
	child, _ := strconv.Atoi(f[0])
	return child
}
