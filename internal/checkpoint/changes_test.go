package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestChangesCompareEarliestContentWithDisk(t *testing.T) {
	f := newFixture(t)
	if err := os.WriteFile(f.path("a.go"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.path("same.go"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.s.Begin("first", 0)
	f.write("a.go", "one\nTWO\n")
	f.write("same.go", "y\n")
	f.s.Begin("second", 2)
	f.write("a.go", "one\nTWO\nthree\n")
	f.write("new.go", "package new\n")
	f.write("same.go", "x\n") // back as it was: no net change

	name := func(p string) string { r, _ := filepath.Rel(f.dir, p); return r }
	got := f.s.Changes(name)
	if len(got) != 2 {
		t.Fatalf("changes %+v", got)
	}
	a, n := got[0], got[1]
	if a.Path != f.path("a.go") || !strings.Contains(a.Diff, "--- a.go") || !strings.Contains(a.Diff, "-two\n") ||
		!strings.Contains(a.Diff, "+TWO\n") || !strings.Contains(a.Diff, "+three\n") {
		t.Fatalf("a.go: %+v", a)
	}
	if n.Path != f.path("new.go") || !strings.Contains(n.Diff, "+package new") {
		t.Fatalf("new.go: %+v", n)
	}
}

func TestChangesNeverFollowALink(t *testing.T) {
	f := newFixture(t)
	secret := filepath.Join(filepath.Dir(f.dir), "secret")
	if err := os.WriteFile(secret, []byte("token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f.s.Begin("first", 0)
	f.write("a.go", "a\n")
	if err := os.Remove(f.path("a.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, f.path("a.go")); err != nil {
		t.Fatal(err)
	}
	got := f.s.Changes(filepath.Base)
	if len(got) != 1 || got[0].Diff != "" || !strings.Contains(got[0].Note, "symbolic link") {
		t.Fatalf("changes %+v", got)
	}
}
