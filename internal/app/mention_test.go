package app

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestMentionsFindExistingPathsOnly(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a.go", "my notes.md", "src/x.go"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte("x"), 0o644)
	}
	got := mentions(`see @a.go, @"my notes.md" and @src/; not mail@a.go nor @missing.go @a.go`, dir, "")
	var raws []string
	for _, m := range got {
		raws = append(raws, m.Raw)
	}
	if want := []string{"a.go", "my notes.md", "src/"}; !reflect.DeepEqual(raws, want) {
		t.Fatalf("mentions %q, want %q", raws, want)
	}
	if got[2].Path != filepath.Join(dir, "src") {
		t.Fatalf("path %q", got[2].Path)
	}
}

func TestFuzzyScorePrefersNamesAndRuns(t *testing.T) {
	if _, ok := fuzzyScore("internal/app/send.go", "xyz"); ok {
		t.Fatal("a non-match matched")
	}
	a, _ := fuzzyScore("internal/app/send.go", "send")
	b, _ := fuzzyScore("internal/session/entry.go", "send")
	if a <= b {
		t.Fatalf("send.go (%d) should beat a scattered match (%d)", a, b)
	}
}
