package builtin

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/permission"
)

func TestLS(t *testing.T) {
	env := newEnv(t)
	put(t, env.Dir, map[string]string{
		".gitignore":       "node_modules/\n*.o\n",
		"README.md":        "",
		"a.o":              "",
		"cmd/app/main.go":  "",
		"cmd/app-x/x.go":   "",
		"node_modules/m/x": "",
		".git/HEAD":        "",
		"empty/":           "",
		"web/a.test.js":    "",
		"web/a.js":         "",
	})
	if err := os.Symlink("README.md", filepath.Join(env.Dir, "link")); err != nil {
		t.Fatal(err)
	}
	want := env.Dir + "/\n" + strings.Join([]string{
		"  .gitignore",
		"  README.md",
		"  cmd/",
		"    app/",
		"      main.go",
		"    app-x/",
		"      x.go",
		"  empty/",
		"  link@",
		"  web/",
		"    a.js",
		"    a.test.js",
	}, "\n") + "\n"
	if got := runOK(t, NewLS(), env, map[string]any{"path": "."}); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	got := runOK(t, NewLS(), env, map[string]any{"path": env.Dir, "ignore": []string{"*.test.js", "cmd"}})
	for _, gone := range []string{"a.test.js", "cmd/", "main.go"} {
		if strings.Contains(got, gone) {
			t.Errorf("%s not ignored:\n%s", gone, got)
		}
	}
	wantContains(t, got, "    a.js\n")
	got = runOK(t, NewLS(), env, map[string]any{"path": "empty"})
	wantContains(t, got, "(empty)")
}

func TestLSCap(t *testing.T) {
	env := newEnv(t)
	files := map[string]string{}
	for i := range 30 {
		for j := range 40 {
			files[fmt.Sprintf("d%02d/f%02d", i, j)] = ""
		}
	}
	put(t, env.Dir, files)
	got := runOK(t, NewLS(), env, map[string]any{"path": "."})
	if n := strings.Count(got, "\n"); n != 1002 {
		t.Errorf("%d lines, want root + 1000 entries + note", n)
	}
	// Breadth first: every top-level directory is shown.
	for i := range 30 {
		wantContains(t, got, fmt.Sprintf("  d%02d/\n", i))
	}
	wantContains(t, got, "stopped at 1000 entries")
}

func TestLSErrorsAndAccess(t *testing.T) {
	env := newEnv(t)
	put(t, env.Dir, map[string]string{"f.txt": ""})
	wantContains(t, prepareErr(t, NewLS(), env, map[string]any{}), "path is required")
	wantContains(t, prepareErr(t, NewLS(), env, map[string]any{"path": ".", "ignore": []string{"[x"}}), "not a valid glob")
	wantContains(t, runErr(t, NewLS(), env, map[string]any{"path": "nope"}), "does not exist")
	wantContains(t, runErr(t, NewLS(), env, map[string]any{"path": "f.txt"}), "Read")
	a := prepare(t, NewLS(), env, map[string]any{"path": "sub"}).Access()
	if NewLS().Kind() != permission.KindRead || a.Paths[0] != filepath.Join(env.Dir, "sub") {
		t.Errorf("Access = %+v", a)
	}
}
