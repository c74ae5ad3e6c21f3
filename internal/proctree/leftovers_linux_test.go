//go:build linux

package proctree

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// markedSleep starts a sleep carrying mark, the way a command of a ponder
// process carries its mark.
func markedSleep(t *testing.T, mark string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	cmd.Env = append(os.Environ(), RunIDEnv+"="+mark)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// alive reports whether the child still runs (not yet killed).
func alive(cmd *exec.Cmd) bool {
	p, ok := readStat(cmd.Process.Pid)
	return ok && !p.zombie
}

// writeRecord leaves a record as a ponder process would.
func writeRecord(t *testing.T, dir string, rec record) string {
	t.Helper()
	data, _ := json.Marshal(rec)
	path := filepath.Join(dir, strconv.Itoa(rec.PID)+"-"+strconv.FormatUint(rec.Start, 10)+".json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// deadProcess returns the pid and start time of a process that has ended.
func deadProcess(t *testing.T) (int, uint64) {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p, _ := readStat(cmd.Process.Pid)
	cmd.Process.Kill()
	cmd.Wait()
	return cmd.Process.Pid, p.start
}

func TestSweepKillsOnlyTheMarkedLeftoversOfDeadPonders(t *testing.T) {
	if !CanSweep() {
		t.Skip("no pidfds here")
	}
	dir := t.TempDir()
	boot := bootID()
	deadPID, deadStart := deadProcess(t)

	// A dead ponder's mark: its leftover is killed.
	leftover := markedSleep(t, "11111111111111111111111111111111")
	gone := writeRecord(t, dir, record{PID: deadPID, Start: deadStart, Boot: boot, Mark: "11111111111111111111111111111111"})
	// A live ponder's mark (this test stands in for it): left alone.
	live := markedSleep(t, "22222222222222222222222222222222")
	kept := writeRecord(t, dir, record{PID: os.Getpid(), Start: selfStart(), Boot: boot, Mark: "22222222222222222222222222222222"})
	// A dead ponder of another boot, and one started after the process
	// carrying its mark: neither is proof, nothing is killed.
	otherBoot := markedSleep(t, "33333333333333333333333333333333")
	writeRecord(t, dir, record{PID: deadPID, Start: deadStart + 1, Boot: "another-boot", Mark: "33333333333333333333333333333333"})
	older := markedSleep(t, "44444444444444444444444444444444")
	p, _ := readStat(older.Process.Pid)
	writeRecord(t, dir, record{PID: deadPID, Start: p.start + 1000, Boot: boot, Mark: "44444444444444444444444444444444"})
	// An unmarked process of the same user.
	bystander := markedSleep(t, "")

	if n := Sweep(dir); n != 1 {
		t.Errorf("killed %d processes, want 1", n)
	}
	if alive(leftover) {
		t.Error("the dead ponder's leftover still runs")
	}
	for name, cmd := range map[string]*exec.Cmd{"live ponder's": live, "other boot's": otherBoot, "older": older, "unmarked": bystander} {
		if !alive(cmd) {
			t.Errorf("the %s process was killed", name)
		}
	}
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Error("the dead ponder's record was kept")
	}
	if _, err := os.Stat(kept); err != nil {
		t.Error("a live process's record was removed")
	}
}

// A Tracker leaves its record when it first marks a command, and removes
// it when it shuts down.
func TestRecordLivesWithTheProcess(t *testing.T) {
	if !CanSweep() {
		t.Skip("no pidfds here")
	}
	tr := newTracker(hostSystem())
	dir := t.TempDir()
	if env := tr.CommandEnv(); env != nil {
		t.Fatalf("marked commands without a record directory: %v", env)
	}
	tr.RecordIn(dir)
	env := tr.CommandEnv()
	if len(env) != 1 || len(env[0]) != len(RunIDEnv)+1+32 {
		t.Fatalf("env %v", env)
	}
	if again := tr.CommandEnv(); again[0] != env[0] {
		t.Error("the mark changed")
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(names) != 1 {
		t.Fatalf("records %v", names)
	}
	if n := Sweep(dir); n != 0 {
		t.Errorf("a live process's record was swept: %d", n)
	}
	tr.Shutdown()
	if _, err := os.Stat(names[0]); !os.IsNotExist(err) {
		t.Error("the record outlived a normal end")
	}
}
