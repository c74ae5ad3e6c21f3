//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// A leftover of a process that is gone is removed at the next start,
// whatever directory it is in, as long as that process noted the
// directory; a repository's look-alike, and the leftovers of a process
// still running, stay.
func TestSweepCleansNotedDirectories(t *testing.T) {
	tt := testTemps(t)
	j := &journal{dir: filepath.Join(t.TempDir(), "temps")}
	project := t.TempDir()
	j.note(project)
	j.note(project) // noted once

	dead := deadPID(t)
	name, err := tt.name(filepath.Join(project, "main.go"), dead)
	if err != nil {
		t.Fatal(err)
	}
	leftover := filepath.Join(project, name)
	lookalike := filepath.Join(project, ".main.go.ponder-"+strconv.Itoa(dead)+"-0123456789abcdef-0123456789abcdef.tmp")
	for _, p := range []string{leftover, lookalike} {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The note is this process's: the sweep leaves it while it runs.
	if n := tt.sweep(j); n != 0 {
		t.Fatalf("swept %d files of a running process's note", n)
	}
	mine := filepath.Join(j.dir, strconv.Itoa(os.Getpid())+".dirs")
	theirs := filepath.Join(j.dir, strconv.Itoa(dead)+".dirs")
	if err := os.Rename(mine, theirs); err != nil {
		t.Fatal(err)
	}
	if n := tt.sweep(j); n != 1 {
		t.Fatalf("swept %d files, want 1", n)
	}
	if _, err := os.Stat(leftover); !os.IsNotExist(err) {
		t.Errorf("leftover still there: %v", err)
	}
	if _, err := os.Stat(lookalike); err != nil {
		t.Errorf("look-alike removed: %v", err)
	}
	if _, err := os.Stat(theirs); !os.IsNotExist(err) {
		t.Errorf("note of a process gone kept: %v", err)
	}
}
