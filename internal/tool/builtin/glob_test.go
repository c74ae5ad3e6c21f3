package builtin

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/permission"
)

func TestGlob(t *testing.T) {
	env := newEnv(t)
	put(t, env.Dir, map[string]string{
		".gitignore":        "dist/\n*.log\n",
		"main.go":           "",
		"cmd/app/main.go":   "",
		"cmd/app/main.txt":  "",
		"internal/x/y.go":   "",
		"web/a.ts":          "",
		"web/b.tsx":         "",
		"web/c.js":          "",
		"dist/bundle.js":    "",
		"debug.log":         "",
		".git/hooks/pre.go": "",
		"sub/.gitignore":    "gen.go\n",
		"sub/gen.go":        "",
		"sub/keep.go":       "",
	})
	abs := func(names ...string) string {
		var out []string
		for _, n := range names {
			out = append(out, filepath.Join(env.Dir, n))
		}
		return strings.Join(out, "\n")
	}
	tests := []struct {
		name  string
		input map[string]any
		want  string // sorted list of files; order checked separately
	}{
		{"recursive", map[string]any{"pattern": "**/*.go"}, abs("cmd/app/main.go", "internal/x/y.go", "main.go", "sub/keep.go")},
		{"top level only", map[string]any{"pattern": "*.go"}, abs("main.go")},
		{"braces", map[string]any{"pattern": "web/*.{ts,tsx}"}, abs("web/a.ts", "web/b.tsx")},
		{"with path", map[string]any{"pattern": "*.js", "path": "web"}, abs("web/c.js")},
		{"one level star", map[string]any{"pattern": "cmd/*/main.*"}, abs("cmd/app/main.go", "cmd/app/main.txt")},
		{"absolute pattern", map[string]any{"pattern": filepath.Join(env.Dir, "internal", "**", "*.go")}, abs("internal/x/y.go")},
		{"dot slash", map[string]any{"pattern": "./web/*.js"}, abs("web/c.js")},
		{"ignored are left out", map[string]any{"pattern": "**/*.{js,log}"}, abs("web/c.js")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := runOK(t, NewGlob(), env, tc.input)
			lines := strings.Split(strings.TrimSpace(got), "\n")
			sortedCopy := slices.Sorted(slices.Values(lines))
			if strings.Join(sortedCopy, "\n") != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
	got := runOK(t, NewGlob(), env, map[string]any{"pattern": "**/*.nothing"})
	wantContains(t, got, "No files match")
}

func TestGlobNewestFirstAndCap(t *testing.T) {
	env := newEnv(t)
	files := map[string]string{}
	for i := range 120 {
		files[fmt.Sprintf("d/f%03d.txt", i)] = ""
	}
	put(t, env.Dir, files)
	base := time.Now().Add(-10 * time.Hour)
	for i := range 120 {
		ts := base.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(filepath.Join(env.Dir, fmt.Sprintf("d/f%03d.txt", i)), ts, ts); err != nil {
			t.Fatal(err)
		}
	}
	got := runOK(t, NewGlob(), env, map[string]any{"pattern": "**/*.txt"})
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if lines[0] != filepath.Join(env.Dir, "d/f119.txt") || lines[99] != filepath.Join(env.Dir, "d/f020.txt") {
		t.Errorf("order wrong: first %q, 100th %q", lines[0], lines[99])
	}
	wantContains(t, lines[len(lines)-1], "100 most recently modified of 120", "20 more")
	if strings.Contains(got, "f019.txt") {
		t.Error("an old file was shown")
	}
}

func TestGlobErrorsAndAccess(t *testing.T) {
	env := newEnv(t)
	put(t, env.Dir, map[string]string{"file.txt": "", "src/": ""})
	wantContains(t, prepareErr(t, NewGlob(), env, map[string]any{"pattern": ""}), "pattern is required")
	wantContains(t, prepareErr(t, NewGlob(), env, map[string]any{"pattern": "[a"}), "not a valid glob")
	wantContains(t, runErr(t, NewGlob(), env, map[string]any{"pattern": "*.go", "path": "missing"}), "does not exist")
	wantContains(t, runErr(t, NewGlob(), env, map[string]any{"pattern": "*.go", "path": "file.txt"}), "is a file")

	a := prepare(t, NewGlob(), env, map[string]any{"pattern": "**/*.go", "path": "src"}).Access()
	if NewGlob().Kind() != permission.KindRead || a.Paths[0] != filepath.Join(env.Dir, "src") {
		t.Errorf("Access = %+v", a)
	}
	a = prepare(t, NewGlob(), env, map[string]any{"pattern": "/etc/*.conf"}).Access()
	if a.Paths[0] != "/etc" {
		t.Errorf("absolute pattern Access = %+v", a)
	}
	a = prepare(t, NewGlob(), env, map[string]any{"pattern": "src/deep/*.go"}).Access()
	if a.Paths[0] != filepath.Join(env.Dir, "src", "deep") {
		t.Errorf("fixed prefix Access = %+v", a)
	}
}

func TestDirPruner(t *testing.T) {
	tests := []struct {
		pattern, dir string
		want         bool
	}{
		{"*.go", "a", false},
		{"**/*.go", "a/b", true},
		{"**", "a", true},
		{"src/*.go", "src", true},
		{"src/*.go", "lib", false},
		{"src/*.go", "src/x", false},
		{"src/**/*.go", "src/x/y", true},
		{"*/main.go", "cmd", true},
		{"*/main.go", "cmd/x", false},
		{"{a,b}/*.go", "c", true}, // braces: no pruning
	}
	for _, tc := range tests {
		if got := newDirPruner(tc.pattern).mayHold(tc.dir); got != tc.want {
			t.Errorf("mayHold(%q, %q) = %v, want %v", tc.pattern, tc.dir, got, tc.want)
		}
	}
}

// Glob over more files than it shows lists the newest, newest first, and
// counts them all.
func TestGlobShowsTheNewestOfMany(t *testing.T) {
	env := newEnv(t)
	const n = 250
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("d%d/f%03d.go", i%7, i)] = "x"
	}
	put(t, env.Dir, files)
	base := time.Now().Add(-time.Hour)
	for i := range n {
		at := base.Add(time.Duration(i) * time.Second)
		if err := os.Chtimes(filepath.Join(env.Dir, fmt.Sprintf("d%d/f%03d.go", i%7, i)), at, at); err != nil {
			t.Fatal(err)
		}
	}
	out := runOK(t, NewGlob(), env, map[string]any{"pattern": "**/*.go"})
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != globMaxResults+1 {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	for i, l := range lines[:globMaxResults] {
		if want := fmt.Sprintf("f%03d.go", n-1-i); !strings.HasSuffix(l, want) {
			t.Fatalf("line %d is %q, want %s", i, l, want)
		}
	}
	if !strings.Contains(lines[globMaxResults], fmt.Sprintf("of %d matching files; %d more", n, n-globMaxResults)) {
		t.Errorf("note %q", lines[globMaxResults])
	}
}
