package gitignore

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"testing"
)

// tree writes files (path → content) below a new temporary directory; a
// path ending in "/" makes a directory.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if p[len(p)-1] == '/' {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		writeFile(t, full, content)
	}
	return root
}

func TestMatcherIgnored(t *testing.T) {
	root := tree(t, map[string]string{
		".git/info/exclude":   "secret.txt\nlocal/\n",
		".gitignore":          "*.log\n!important.log\nbuild/\n!build/keep.txt\n/top-only\nlocal-override.txt\n",
		"sub/.gitignore":      "important.log\n/gen\n!local-override.txt\n",
		"sub/deep/.gitignore": "!*.log\n",
		"other/.gitignore":    "!secret.txt\n",
	})
	m := New(root)
	tests := []struct {
		path string
		dir  bool
		want bool
	}{
		{"a.log", false, true},
		{"important.log", false, false},
		{"sub/important.log", false, true},       // deeper file wins
		{"sub/deep/x.log", false, false},         // re-included deeper still
		{"sub/deep/important.log", false, false}, // deepest file decides
		{"build", true, true},                    // dir-only pattern
		{"build/keep.txt", false, true},          // parent excluded: no re-include
		{"build", false, false},                  // a file named build
		{"top-only", false, true},                // anchored at root
		{"sub/top-only", false, false},           // not below
		{"sub/gen", true, true},                  // anchored in sub
		{"gen", true, false},                     // sub's rule stays in sub
		{"sub/x/gen", true, false},               // anchored: only sub/gen
		{"secret.txt", false, true},              // info/exclude
		{"sub/secret.txt", false, true},          // info/exclude at any depth
		{"other/secret.txt", false, false},       // .gitignore beats exclude
		{"local", true, true},                    // exclude dir-only
		{"local-override.txt", false, true},      // root rule
		{"sub/local-override.txt", false, false}, // sub negates
		{".git", true, true},                     // .git always
		{".git/config", false, true},             // and inside it
		{"../outside", false, false},             // outside the root
		{"", true, false},                        // the root itself
		{"sub/./../a.log", false, true},          // cleaned first
		{"notes.txt", false, false},              // nothing matches
		{"sub/deep/more/y.log", false, false},    // inherited re-include
		{"sub/deep/more/important.log", false, false},
	}
	for _, tc := range tests {
		if got := m.Ignored(tc.path, tc.dir); got != tc.want {
			t.Errorf("Ignored(%q, dir=%v) = %v, want %v", tc.path, tc.dir, got, tc.want)
		}
	}
}

func TestMatcherBelowRepoTop(t *testing.T) {
	top := tree(t, map[string]string{
		".git/info/exclude": "*.secret\n",
		".gitignore":        "*.tmp\n/pkg/gen/\n",
		"pkg/.gitignore":    "*.bak\n",
		"pkg/lib/a.go":      "",
	})
	m := New(filepath.Join(top, "pkg", "lib"))
	tests := []struct {
		path string
		dir  bool
		want bool
	}{
		{"a.tmp", false, true},
		{"a.bak", false, true},
		{"x.secret", false, true},
		{"a.go", false, false},
	}
	for _, tc := range tests {
		if got := m.Ignored(tc.path, tc.dir); got != tc.want {
			t.Errorf("Ignored(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
	// An anchored rule of the top applies to the matching directory
	// below it, seen from a matcher rooted at pkg.
	m2 := New(filepath.Join(top, "pkg"))
	if !m2.Ignored("gen", true) {
		t.Error("pkg/gen should be ignored by the top's /pkg/gen/ rule")
	}
}

func TestWorktreeGitFile(t *testing.T) {
	base := tree(t, map[string]string{
		"real/info/exclude": "*.secret\n",
		"wt/.git":           "gitdir: ../real\n",
		"wt/x.secret":       "",
	})
	m := New(filepath.Join(base, "wt"))
	if !m.Ignored("x.secret", false) {
		t.Error("exclude file of a gitdir: link not applied")
	}
}

func collect(t *testing.T, m *Matcher, start string) []string {
	t.Helper()
	var mu sync.Mutex
	var got []string
	err := m.Walk(context.Background(), start, WalkOptions{}, func(e Entry) error {
		name := e.Rel
		if e.IsDir() {
			name += "/"
		}
		mu.Lock()
		got = append(got, name)
		mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	return got
}

func TestWalk(t *testing.T) {
	root := tree(t, map[string]string{
		".gitignore":          "*.log\nnode_modules/\n",
		".git/HEAD":           "ref",
		"a.go":                "",
		"a.log":               "",
		"node_modules/x.js":   "",
		"src/b.go":            "",
		"src/.gitignore":      "gen/\n",
		"src/gen/c.go":        "",
		"src/deep/er/d.go":    "",
		"src/deep/er/e.log":   "",
		"empty/":              "",
		"other/.git":          "gitdir: elsewhere",
		"other/keep.txt":      "",
		"src/deep/.gitignore": "!e.log\n",
	})
	m := New(root)
	want := []string{
		".gitignore", "a.go", "empty/", "other/", "other/keep.txt",
		"src/", "src/.gitignore", "src/b.go", "src/deep/", "src/deep/.gitignore",
		"src/deep/er/", "src/deep/er/d.go", "src/deep/er/e.log",
	}
	if got := collect(t, m, ""); !slices.Equal(got, want) {
		t.Errorf("walk:\n got %q\nwant %q", got, want)
	}
	wantSrc := []string{"src/.gitignore", "src/b.go", "src/deep/", "src/deep/.gitignore", "src/deep/er/", "src/deep/er/d.go", "src/deep/er/e.log"}
	if got := collect(t, m, "src"); !slices.Equal(got, wantSrc) {
		t.Errorf("walk from src:\n got %q\nwant %q", got, wantSrc)
	}
	// A file as start is reported alone, even when ignored.
	if got := collect(t, m, "a.log"); !slices.Equal(got, []string{"a.log"}) {
		t.Errorf("walk of a file: %q", got)
	}
}

func TestWalkSkipAndErrors(t *testing.T) {
	root := tree(t, map[string]string{
		"a/1": "", "a/2": "", "b/1": "", "c": "",
	})
	m := New(root)
	var mu sync.Mutex
	var got []string
	err := m.Walk(context.Background(), "", WalkOptions{Workers: 1}, func(e Entry) error {
		mu.Lock()
		got = append(got, e.Rel)
		mu.Unlock()
		if e.Rel == "a" {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	if want := []string{"a", "b", "b/1", "c"}; !slices.Equal(got, want) {
		t.Errorf("SkipDir: got %q, want %q", got, want)
	}

	boom := errors.New("boom")
	if err := m.Walk(context.Background(), "", WalkOptions{}, func(Entry) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("error from fn: got %v", err)
	}
	if err := m.Walk(context.Background(), "", WalkOptions{}, func(Entry) error { return fs.SkipAll }); err != nil {
		t.Errorf("SkipAll: got %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := m.Walk(ctx, "", WalkOptions{}, func(Entry) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled walk: got %v", err)
	}
	if err := m.Walk(context.Background(), "missing", WalkOptions{}, func(Entry) error { return nil }); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing start: got %v", err)
	}
}

func TestReadDir(t *testing.T) {
	root := tree(t, map[string]string{
		".gitignore": "*.o\n",
		"z.c":        "", "a.o": "", "m/x.o": "", "m/y.c": "", ".git/HEAD": "",
	})
	m := New(root)
	ents, err := m.ReadDir("")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Rel)
	}
	if want := []string{".gitignore", "m", "z.c"}; !slices.Equal(names, want) {
		t.Errorf("ReadDir: got %q, want %q", names, want)
	}
	ents, err = m.ReadDir("m")
	if err != nil || len(ents) != 1 || ents[0].Rel != "m/y.c" || ents[0].Path != filepath.Join(root, "m", "y.c") {
		t.Errorf("ReadDir(m) = %+v, %v", ents, err)
	}
	if _, err := m.ReadDir("nope"); err == nil {
		t.Error("ReadDir of a missing directory should fail")
	}
}
