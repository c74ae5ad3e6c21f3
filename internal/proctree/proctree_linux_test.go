//go:build linux

package proctree

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
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
