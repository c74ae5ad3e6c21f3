//go:build linux

package proctree

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/testenv"
)

// markerProcs lists live processes whose command line contains marker.
func markerProcs(marker string) []int {
	var out []int
	for pid, p := range (linux{}).list() {
		if p.zombie {
			continue
		}
		cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err == nil && strings.Contains(string(cmdline), marker) {
			out = append(out, pid)
		}
	}
	return out
}

// A shell that leaves processes behind in every way it can: in its
// group, in a new group, in a new session, through a double fork. Once it
// ends, KillSession and the end of its scope leave nothing running, and
// nothing unreaped.
func TestNothingOutlivesTheCommand(t *testing.T) {
	tr := Default()
	marker := fmt.Sprintf("%03d%05d", os.Getpid()%1000, time.Now().UnixNano()%100000)
	script := fmt.Sprintf(`
		sleep 91.%[1]s &
		(sleep 92.%[1]s &) 
		setsid sleep 93.%[1]s &
		nohup sleep 94.%[1]s >/dev/null 2>&1 &
		( ( setsid sleep 95.%[1]s & ) & )
		set -m; sleep 96.%[1]s &
		sleep 0.2
	`, marker)
	s := tr.Begin()
	cmd := exec.Command("bash", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.Keep(cmd.Process.Pid)
	cmd.Wait()
	if n := len(markerProcs(marker)); n < 5 {
		t.Fatalf("the script left only %d processes to kill; the test proves nothing", n)
	}
	tr.KillSession(cmd.Process.Pid)
	s.End()
	if left := markerProcs(marker); len(left) > 0 {
		t.Fatalf("left running: %v", left)
	}
	for pid, p := range (linux{}).list() {
		if p.zombie && p.ppid == os.Getpid() {
			t.Errorf("zombie child %d left unreaped", pid)
		}
	}
}

// A process killed with its pid reused in between is never hit: kill
// checks the start time through a pidfd.
func TestKillChecksStartTime(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	p, ok := readStat(cmd.Process.Pid)
	if !ok {
		t.Fatal("no stat")
	}
	if h := (linux{}).kill(cmd.Process.Pid, p.start+1); h >= 0 {
		t.Fatal("killed a process whose start time differs")
	}
	h := (linux{}).kill(cmd.Process.Pid, p.start)
	if h < 0 {
		t.Fatal("did not kill the right process")
	}
	(linux{}).await([]int{h}, 5*time.Second)
	if err := cmd.Wait(); err == nil {
		t.Fatal("sleep was not killed")
	}
}

// hopScript is a process that re-forks without end: each generation forks
// the next and exits at once, so its pid changes all the time and each
// exited generation is re-parented to ponder. It leaves its command's
// session first, as a daemon would. It stops by itself after the seconds
// given, so a failing test cannot leave it running for long.
const hopScript = `
import os, sys, time
end = time.time() + float(sys.argv[2])
if os.fork(): os._exit(0)
os.setsid()
while time.time() < end:
    try:
        if os.fork(): os._exit(0)
    except OSError:
        time.sleep(0.005)
os._exit(0)
`

// A re-forking process started by a command neither fills the process
// table while the command runs (each exited generation re-parented to
// ponder is reaped at once) nor outlives the command (its process group
// is killed as a whole, and generations born while ponder hunts count as
// the command's). Runs in a pids cgroup where the machine has one.
func TestReForkingProcessIsContained(t *testing.T) {
	python := testenv.Program(t, "python3", "the attack is a Python script")
	script := filepath.Join(t.TempDir(), "hop.py")
	os.WriteFile(script, []byte(hopScript), 0o644)
	cg := pidsCgroup(t, 400)
	marker := fmt.Sprintf("hop-%d-%d", os.Getpid(), time.Now().UnixNano()%100000)
	tr := Default()
	before := tr.Reaped()
	s := tr.Begin()
	cmd := exec.Command("bash", "-c", `[ -n "$1" ] && echo $$ > "$1/cgroup.procs"; "$2" "$3" "$4" 30 & sleep 1.5`, "sh", cg, python, script, marker)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.Keep(cmd.Process.Pid)
	// Count the exited generations waiting to be reaped, every 20 ms
	// while the command runs.
	stop, sampled := make(chan struct{}), make(chan int)
	go func() {
		most := 0
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				sampled <- most
				return
			case <-tick.C:
			}
			n := 0
			for _, p := range (linux{}).zombies() {
				if p.sid != cmd.Process.Pid {
					n++
				}
			}
			most = max(most, n)
		}
	}()
	cmd.Wait()
	close(stop)
	most := <-sampled
	tr.KillSession(cmd.Process.Pid)
	s.End()
	t.Logf("reaped %d generations; at most %d waited at once", tr.Reaped()-before, most)
	if n := tr.Reaped() - before; n < 50 {
		t.Fatalf("only %d generations were reaped; the hopper did not run", n)
	}
	if most > 100 {
		t.Errorf("%d exited generations waited to be reaped at once", most)
	}
	deadline := time.Now().Add(3 * time.Second)
	for len(markerProcs(marker)) > 0 && time.Now().Before(deadline) {
		runtime.Gosched()
	}
	if left := markerProcs(marker); len(left) > 0 {
		t.Fatalf("the hopper outlived its command: %v", left)
	}
}
