package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// rssLimitKB is where the special-file tests stop ponder themselves, so
// that a failure cannot exhaust the machine's memory.
const rssLimitKB = 1 << 20

// watchRSS kills p once its resident memory passes rssLimitKB, and
// reports through the returned function whether it had to.
func watchRSS(p *spawned) func() bool {
	stop := make(chan struct{})
	killed := make(chan bool, 1)
	go func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				killed <- false
				return
			case <-tick.C:
			}
			pid := p.ponderPID()
			if pid == 0 {
				continue
			}
			data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
			if err != nil {
				continue
			}
			for _, l := range strings.Split(string(data), "\n") {
				if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
					if kb, _ := strconv.Atoi(f[1]); kb > rssLimitKB {
						syscall.Kill(pid, syscall.SIGKILL)
						killed <- true
						return
					}
				}
			}
		}
	}()
	return func() bool { close(stop); return <-killed }
}

// Grep and Read of files whose size says nothing (/proc/PID/pagemap
// reports 0 and reads on for the whole address space), named or found in
// a directory search, read a bounded amount: ponder's peak memory stays
// small, and the calls return.
func TestPseudoFilesAreReadBounded(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		target := exec.Command("sleep", "120")
		if err := target.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { target.Process.Kill(); target.Wait() })
		pm := fmt.Sprintf("/proc/%d/pagemap", target.Process.Pid)
		calls := tools(
			call{Name: "Grep", Input: map[string]any{"pattern": "zzzq", "path": pm}},
			call{Name: "Grep", Input: map[string]any{"pattern": "zzzq", "path": filepath.Dir(pm)}},
			call{Name: "Read", Input: map[string]any{"file_path": pm}},
			call{Name: "Read", Input: map[string]any{"file_path": pm, "offset": 1000000000}},
		)
		w := newWorld(t, api,
			fakemodel.Reply{Name: "grep", When: fakemodel.Match{LastUser: "look"}, ToolCalls: calls},
			fakemodel.Reply{Name: "done", When: fakemodel.Match{Func: func(r *fakemodel.Request) bool {
				return len(r.LastUser().ToolResults) == len(calls)
			}}, Text: "done"},
		)
		p := w.spawnMeasured("-p", "look", "--permission-mode", "plan")
		stop := watchRSS(p)
		code, _ := p.wait(t)
		if stop() {
			t.Fatalf("ponder passed %d MB reading %s", rssLimitKB>>10, pm)
		}
		if code != 0 {
			t.Fatalf("exit %d: %s", code, p.stderr.String())
		}
		peak := p.peakMB(t)
		t.Logf("ponder's peak RSS: %d MB", peak)
		if peak > 150 {
			t.Errorf("peak RSS %d MB", peak)
		}
		reqs := w.srv.Requests()
		for i, r := range toolResults(reqs[len(reqs)-1]) {
			t.Logf("call %d: %s", i, excerptFor(r.Content))
		}
	})
}

// Read and Grep refuse the kernel log (whose reading takes messages away
// from the system logger, then waits), named pipes (which would wait for
// a writer) and devices, at once and with a reason; the kernel's unread
// log stays as it was, and ponder ends on its own.
func TestSpecialFilesAreRefused(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		dir := t.TempDir()
		fifo := filepath.Join(dir, "pipe")
		if err := unix.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(dir, "log")
		os.Symlink("/proc/kmsg", link)
		calls := tools(
			call{Name: "Read", Input: map[string]any{"file_path": "/proc/kmsg"}},
			call{Name: "Read", Input: map[string]any{"file_path": link}},
			call{Name: "Grep", Input: map[string]any{"pattern": "x", "path": "/proc/kmsg"}},
			call{Name: "Read", Input: map[string]any{"file_path": fifo}},
			call{Name: "Grep", Input: map[string]any{"pattern": "x", "path": fifo}},
			call{Name: "Read", Input: map[string]any{"file_path": "/dev/zero"}},
			call{Name: "Grep", Input: map[string]any{"pattern": "x", "path": "/dev/urandom"}},
		)
		w := newWorld(t, api,
			fakemodel.Reply{Name: "read", When: fakemodel.Match{LastUser: "look"}, ToolCalls: calls},
			fakemodel.Reply{Name: "done", When: fakemodel.Match{Func: func(r *fakemodel.Request) bool {
				return len(r.LastUser().ToolResults) == len(calls)
			}}, Text: "done"},
		)
		// Something unread in the kernel log, where this test may write it.
		if f, err := os.OpenFile("/dev/kmsg", os.O_WRONLY, 0); err == nil {
			fmt.Fprintf(f, "ponder e2e: unread kernel log line\n")
			f.Close()
		}
		before, _ := unix.Klogctl(unix.SYSLOG_ACTION_SIZE_UNREAD, nil)
		start := time.Now()
		o := w.mustRun(0, "", "-p", "look", "--permission-mode", "plan")
		if took := time.Since(start); took > 20*time.Second {
			t.Errorf("took %v", took)
		}
		after, _ := unix.Klogctl(unix.SYSLOG_ACTION_SIZE_UNREAD, nil)
		if after < before {
			t.Errorf("the kernel's unread log went from %d to %d bytes", before, after)
		}
		reqs := w.srv.Requests()
		res := toolResults(reqs[len(reqs)-1])
		if len(res) != len(calls) {
			t.Fatalf("%d results: %s", len(res), o.stdout)
		}
		wants := []string{"kernel log", "kernel log", "kernel log", "named pipe", "regular file", "device", "regular file"}
		if os.Geteuid() != 0 {
			// Only root may open the kernel log at all.
			wants[0], wants[1], wants[2] = "", "", ""
		}
		for i, r := range res {
			if !failed(r) || !strings.Contains(r.Content, wants[i]) {
				t.Errorf("call %d (%v): %q, want a refusal naming %q", i, calls[i].Input, r.Content, wants[i])
			}
		}
	})
}
