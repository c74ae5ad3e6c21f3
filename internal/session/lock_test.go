//go:build unix

package session

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func TestLockKeepsASecondHolderOut(t *testing.T) {
	store := Store{Dir: t.TempDir()}
	l, err := store.Lock("s1")
	if err != nil {
		t.Fatal(err)
	}
	_, err = store.Lock("s1")
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("second lock: %v", err)
	}
	if le.Holder.PID != os.Getpid() || le.SessionID != "s1" {
		t.Errorf("holder %+v of %q", le.Holder, le.SessionID)
	}
	msg := err.Error()
	for _, want := range []string{"s1", "pid " + strconv.Itoa(os.Getpid()), "--fork-session"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	// Another session is not affected.
	other, err := store.Lock("s2")
	if err != nil {
		t.Fatalf("another session: %v", err)
	}
	other.Release()
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(store.LockPath("s1")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file left after release: %v", err)
	}
	again, err := store.Lock("s1")
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	again.Release()
}

// A lock file left with another process's details (a process that was
// killed) does not keep anyone out.
func TestStaleLockFileIsTakenOver(t *testing.T) {
	store := Store{Dir: t.TempDir()}
	if err := os.WriteFile(store.LockPath("s"), []byte(`{"pid":999999,"started":"2020-01-01T00:00:00Z"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := store.Lock("s")
	if err != nil {
		t.Fatalf("stale lock: %v", err)
	}
	defer l.Release()
	data, _ := os.ReadFile(store.LockPath("s"))
	if !strings.Contains(string(data), fmt.Sprintf(`"pid":%d`, os.Getpid())) {
		t.Errorf("lock file %q does not name this process", data)
	}
}

// TestLockHelperProcess is not a test: the tests below run it in a child
// process that takes a lock, starts a long-lived program of its own, and
// waits to be killed.
func TestLockHelperProcess(t *testing.T) {
	dir := os.Getenv("PONDER_LOCK_HELPER_DIR")
	if dir == "" {
		t.Skip("helper process only")
	}
	if _, err := (Store{Dir: dir}).Lock("s"); err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	child := exec.Command("sleep", "60")
	if err := child.Start(); err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println("locked", child.Process.Pid)
	select {}
}

// A process killed with SIGKILL leaves its lock free at once, even while a
// program it started lives on.
func TestLockIsFreeAfterKill9(t *testing.T) {
	store := Store{Dir: t.TempDir()}
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHelperProcess$")
	cmd.Env = append(os.Environ(), "PONDER_LOCK_HELPER_DIR="+store.Dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	var grandchild int
	if _, err := fmt.Sscanf(line, "locked %d", &grandchild); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper said %q", line)
	}
	defer syscall.Kill(grandchild, syscall.SIGKILL)

	_, err = store.Lock("s")
	var le *LockedError
	if !errors.As(err, &le) || le.Holder.PID != cmd.Process.Pid {
		t.Fatalf("while the helper runs: %v", err)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if syscall.Kill(grandchild, 0) != nil {
		t.Fatal("the helper's child is gone; the test proves nothing")
	}
	l, err := store.Lock("s")
	if err != nil {
		t.Fatalf("after kill -9: %v", err)
	}
	l.Release()
}
