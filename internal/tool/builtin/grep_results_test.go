package builtin

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The result set keeps exactly what the output can show: whatever the
// order results arrive in, the kept results are the first ones of the
// full sorted list, enough of them to fill the output, and the counts
// cover every result.
func TestResultSetKeepsWhatCanBeShown(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, mode := range []grepMode{modeFiles, modeCount, modeContent} {
		var all []fileResult
		for i := range 20000 {
			res := fileResult{
				path:  fmt.Sprintf("/p/%s/f%05d.go", strings.Repeat("d", r.IntN(40)), i),
				mod:   base.Add(time.Duration(r.IntN(5000)) * time.Second), // ties too
				count: 1 + r.IntN(3),
			}
			if mode == modeContent {
				res.out = []byte(strings.Repeat("x", r.IntN(200)) + "\n")
			}
			all = append(all, res)
		}
		set := newResultSet(mode)
		for _, res := range all {
			set.add(res)
		}
		slices.SortFunc(all, set.kept.before)
		got := set.shown()
		if len(got) >= len(all) || len(got) == 0 {
			t.Fatalf("mode %d: kept %d of %d", mode, len(got), len(all))
		}
		size := 0
		for i, res := range got {
			if res.path != all[i].path {
				t.Fatalf("mode %d: kept result %d is %s, want %s", mode, i, res.path, all[i].path)
			}
			if i < len(got)-1 {
				size += set.shownBytes(res)
			}
		}
		if size >= grepMaxOutput {
			t.Errorf("mode %d: kept more than the output can show (%d bytes before the last)", mode, size)
		}
		if size+set.shownBytes(got[len(got)-1]) < grepMaxOutput {
			t.Errorf("mode %d: kept too little to fill the output", mode)
		}
		if set.files != len(all) {
			t.Errorf("mode %d: counted %d files of %d", mode, set.files, len(all))
		}
	}
}

// Grep over more files than its answer can show lists the newest first
// and counts them all, as it did when it held every result.
func TestGrepListsNewestOfManyFiles(t *testing.T) {
	env := newEnv(t)
	const n = 3000
	base := time.Now().Add(-time.Hour)
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("some/longer/directory/name/file-%04d.txt", i)] = "the word\n"
	}
	put(t, env.Dir, files)
	for i := range n {
		p := filepath.Join(env.Dir, fmt.Sprintf("some/longer/directory/name/file-%04d.txt", i))
		at := base.Add(time.Duration(i) * time.Second)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	out := runOK(t, NewGrep(), env, map[string]any{"pattern": "word"})
	lines := strings.Split(out, "\n")
	if lines[0] != fmt.Sprintf("Found %d files", n) {
		t.Fatalf("header %q", lines[0])
	}
	for i, l := range lines[1:6] {
		want := fmt.Sprintf("file-%04d.txt", n-1-i)
		if !strings.HasSuffix(l, want) {
			t.Errorf("line %d: %q, want the file %s", i+1, l, want)
		}
	}
	if !strings.Contains(out, fmt.Sprintf("of %d lines because it is long", n)) {
		t.Errorf("no note of the cut output:\n%s", out[len(out)-300:])
	}
	if len(out) > grepMaxOutput+500 {
		t.Errorf("output of %d bytes", len(out))
	}
	out = runOK(t, NewGrep(), env, map[string]any{"pattern": "word", "output_mode": "content", "head_limit": 5})
	if !strings.Contains(out, fmt.Sprintf("Showing the first 5 of %d lines", n)) || !strings.Contains(out, "file-0000.txt:1:the word") {
		t.Errorf("content with head_limit:\n%s", out)
	}
}
