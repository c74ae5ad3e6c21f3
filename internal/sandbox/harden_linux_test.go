package sandbox

import (
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// After HardenProcess ponder cannot dump core, and other processes of the
// same user can neither ptrace it nor read its /proc files.
func TestHardenProcess(t *testing.T) {
	if err := HardenProcess(); err != nil {
		t.Fatal(err)
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_CORE, &lim); err != nil {
		t.Fatal(err)
	}
	if lim.Cur != 0 {
		t.Errorf("core size limit %d, want 0", lim.Cur)
	}
	if d, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0); err != nil || d != 0 {
		t.Errorf("dumpable = %d (%v), want 0", d, err)
	}
}
