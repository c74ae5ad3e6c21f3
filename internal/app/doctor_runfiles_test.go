package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ponder doctor lists the table by category, the files of it present in
// the project, and what the settings guard compares.
func TestDoctorListsFilesThatDecideWhatRuns(t *testing.T) {
	dir, cfg := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(dir, "justfile"), nil, 0o644)
	os.MkdirAll(filepath.Join(dir, ".husky", "_"), 0o755)
	r := describeRunFiles(dir, cfg)
	if len(r.Categories) < 10 || !strings.HasPrefix(r.Categories[0], "agent settings: ") {
		t.Errorf("categories %v", r.Categories)
	}
	for _, want := range []string{"justfile (task runners)", ".husky (version control hooks and config)"} {
		if !slices.Contains(r.Present, want) {
			t.Errorf("%q missing from %v", want, r.Present)
		}
	}
	if !slices.ContainsFunc(r.Guarded, func(s string) bool { return strings.HasPrefix(s, cfg+"/ (every file but projects") }) {
		t.Errorf("the config directory is not listed as guarded: %v", r.Guarded)
	}
}
