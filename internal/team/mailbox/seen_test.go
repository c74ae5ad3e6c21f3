package mailbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func openSeen(t *testing.T, dir string) *Seen {
	t.Helper()
	s, err := OpenSeen(dir, "team", "worker")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func has(t *testing.T, s *Seen, id string) bool {
	t.Helper()
	ok, err := s.Has(id)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func TestSeenDurableAndShared(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := openSeen(t, dir), openSeen(t, dir)
	if has(t, a, "m1") {
		t.Fatal("empty record has m1")
	}
	if err := a.Add("m1"); err != nil {
		t.Fatal(err)
	}
	if !has(t, b, "m1") {
		t.Fatal("a second reader of the record does not see m1")
	}
	if err := b.Add("m2"); err != nil {
		t.Fatal(err)
	}
	if !has(t, a, "m2") {
		t.Fatal("the first reader does not see m2 added by the second")
	}
	if !has(t, openSeen(t, dir), "m1") {
		t.Fatal("the record did not survive reopening")
	}
	data, err := os.ReadFile(filepath.Join(dir, "teams", "team", "seen", "worker.log"))
	if err != nil || string(data) != "m1\nm2\n" {
		t.Fatalf("record on disk: %q %v", data, err)
	}
	if err := a.Add("../x"); err == nil {
		t.Fatal("a hostile ID was recorded")
	}
}

// TestSeenTornLine: a line a crash cut short is not an ID, and the next
// Add does not glue its ID onto it.
func TestSeenTornLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := openSeen(t, dir)
	if err := s.Add("m1"); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "teams", "team", "seen", "worker.log")
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("m2") // no newline: the crash came before it
	f.Close()
	if has(t, s, "m2") {
		t.Fatal("a torn line counts as recorded")
	}
	if err := s.Add("m3"); err != nil {
		t.Fatal(err)
	}
	if !has(t, s, "m3") || has(t, s, "m2m3") || !has(t, s, "m1") {
		t.Fatal("the append after a torn line went wrong")
	}
	data, _ := os.ReadFile(file)
	if string(data) != "m1\nm3\n" {
		t.Fatalf("record on disk: %q", data)
	}
}

func TestSeenCompacts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := openSeen(t, dir)
	s.keep = 3
	for i := range 6 {
		if err := s.Add(fmt.Sprintf("m%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "teams", "team", "seen", "worker.log"))
	if got := strings.Fields(string(data)); strings.Join(got, " ") != "m3 m4 m5" {
		t.Fatalf("after compaction the record holds %q", got)
	}
	other := openSeen(t, dir)
	if has(t, other, "m0") || !has(t, other, "m5") {
		t.Fatal("compaction kept the wrong IDs")
	}
	if err := s.Add("m6"); err != nil || !has(t, other, "m6") {
		t.Fatalf("append after compaction: %v", err)
	}
}
