//go:build unix

package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// A crashed ponder's scratch directories go at the next start; nothing
// else does: not a running ponder's, not one whose pid now belongs to a
// process started later, not a link or a file under a scratch name, not
// a name of another pattern.
func TestRemoveStaleScratch(t *testing.T) {
	dir := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	deadPid := dead.Process.Pid
	parent := os.Getppid()
	parentStart, ok := processStart(parent)
	if !ok {
		t.Fatal("the parent does not run")
	}
	target := t.TempDir()
	os.WriteFile(filepath.Join(target, "keep"), []byte("x"), 0o644)
	mk := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(p, "f"), []byte("x"), 0o644)
		return p
	}
	gone := mk(fmt.Sprintf("ponder-sandbox-%d.%d-123", deadPid, 5))
	reused := mk(fmt.Sprintf("ponder-sandbox-%d.%d-456", parent, parentStart+1))
	kept := []string{
		mk(fmt.Sprintf("ponder-sandbox-%d.%d-789", parent, parentStart)),
		mk(scratchPattern() + "000"),
		mk("ponder-sandbox-old1234"),
		mk("ponder-sandbox-probe-1"),
	}
	link := filepath.Join(dir, fmt.Sprintf("ponder-sandbox-%d.%d-999", deadPid, 5))
	os.Symlink(target, link)
	file := filepath.Join(dir, fmt.Sprintf("ponder-sandbox-%d.%d-998", deadPid, 5))
	os.WriteFile(file, []byte("x"), 0o644)
	kept = append(kept, link, file, filepath.Join(target, "keep"))

	removed := removeStaleScratch(dir)
	slices.Sort(removed)
	want := []string{gone, reused}
	slices.Sort(want)
	if !slices.Equal(removed, want) {
		t.Errorf("removed %v, want %v", removed, want)
	}
	for _, p := range want {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s is still there", p)
		}
	}
	for _, p := range kept {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed", p)
		}
	}
}

func TestParseScratchName(t *testing.T) {
	for name, ok := range map[string]bool{
		"ponder-sandbox-12.34-abc": true,
		"ponder-sandbox-12.34-":    false,
		"ponder-sandbox-12-abc":    false,
		"ponder-sandbox-x.34-abc":  false,
		"ponder-sandbox--1.34-abc": false,
		"ponder-sandbox-0.34-abc":  false,
		"other-12.34-abc":          false,
	} {
		if _, _, got := parseScratchName(name); got != ok {
			t.Errorf("%q: %v, want %v", name, got, ok)
		}
	}
}
