package builtin

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/permission"
)

func TestReadSuccess(t *testing.T) {
	env := newEnv(t)
	var long strings.Builder
	for i := 1; i <= 2500; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	put(t, env.Dir, map[string]string{
		"a.txt":    "alpha\nbeta\ngamma",
		"crlf.txt": "one\r\ntwo\r\n",
		"long.txt": long.String(),
		"wide.txt": strings.Repeat("x", 2500) + "\nshort\n",
		"empty":    "",
	})
	tests := []struct {
		name  string
		input map[string]any
		want  []string
		not   []string
	}{
		{"whole file", map[string]any{"file_path": "a.txt"},
			[]string{"     1\talpha\n", "     2\tbeta\n", "     3\tgamma\n"}, []string{"offset="}},
		{"absolute path", map[string]any{"file_path": filepath.Join(env.Dir, "a.txt")},
			[]string{"     1\talpha"}, nil},
		{"offset and limit", map[string]any{"file_path": "a.txt", "offset": 2, "limit": 1},
			[]string{"     2\tbeta\n", "offset=3", "lines 2-2 of 3"}, []string{"alpha", "gamma"}},
		{"crlf shown without cr", map[string]any{"file_path": "crlf.txt"},
			[]string{"     1\tone\n", "     2\ttwo\n"}, []string{"\r"}},
		{"default limit", map[string]any{"file_path": "long.txt"},
			[]string{"  2000\tline 2000\n", "lines 1-2000 of 2500", "offset=2001"}, []string{"line 2001\n"}},
		{"continue", map[string]any{"file_path": "long.txt", "offset": 2001},
			[]string{"  2001\tline 2001\n", "  2500\tline 2500\n"}, []string{"offset="}},
		{"long line cut", map[string]any{"file_path": "wide.txt"},
			[]string{strings.Repeat("x", 2000) + " … [line truncated", "     2\tshort"}, []string{strings.Repeat("x", 2001)}},
		{"empty file", map[string]any{"file_path": "empty"},
			[]string{"is empty"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := runOK(t, NewRead(), env, tc.input)
			wantContains(t, got, tc.want...)
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("output has %q:\n%.300s", n, got)
				}
			}
		})
	}
}

func TestReadNotesFile(t *testing.T) {
	env := newEnv(t)
	put(t, env.Dir, map[string]string{"f": "x\n", "empty": ""})
	for _, name := range []string{"f", "empty"} {
		p := filepath.Join(env.Dir, name)
		if env.Files.CheckFresh(p) == nil {
			t.Fatal("unread file counted as fresh")
		}
		runOK(t, NewRead(), env, map[string]any{"file_path": name})
		if err := env.Files.CheckFresh(p); err != nil {
			t.Errorf("after Read: %v", err)
		}
	}
}

func TestReadErrors(t *testing.T) {
	env := newEnv(t)
	put(t, env.Dir, map[string]string{
		"config.yaml": "a: 1\n",
		"dir/":        "",
		"image.png":   "not really",
		"blob":        "abc\x00def",
		"two.txt":     "1\n2\n",
	})
	tests := []struct {
		name  string
		input map[string]any
		want  []string
	}{
		{"missing with suggestion", map[string]any{"file_path": "config.yml"}, []string{"does not exist", "config.yaml"}},
		{"missing dir", map[string]any{"file_path": "nope/x.go"}, []string{"does not exist", "directory"}},
		{"directory", map[string]any{"file_path": "dir"}, []string{"is a directory", "LS"}},
		{"binary extension", map[string]any{"file_path": "image.png"}, []string{"binary", "image"}},
		{"binary content", map[string]any{"file_path": "blob"}, []string{"binary"}},
		{"offset past end", map[string]any{"file_path": "two.txt", "offset": 5}, []string{"has 2 lines", "offset 5"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wantContains(t, runErr(t, NewRead(), env, tc.input), tc.want...)
		})
	}
	for _, input := range []string{`{}`, `{"file_path": ""}`, `{"file_path": "a", "offset": -1}`, `{"file_path": "a", "limit": -2}`, `{"file_path": 3}`} {
		prepareErr(t, NewRead(), env, input)
	}
	if err := env.Files.CheckFresh(filepath.Join(env.Dir, "blob")); err == nil {
		t.Error("a refused read must not count as a read")
	}
}

func TestReadAccess(t *testing.T) {
	env := newEnv(t)
	c := prepare(t, NewRead(), env, map[string]any{"file_path": "sub/../x.go"})
	a := c.Access()
	if NewRead().Kind() != permission.KindRead || len(a.Paths) != 1 || a.Paths[0] != filepath.Join(env.Dir, "x.go") {
		t.Errorf("Access = %+v", a)
	}
	if _, err := os.Stat(filepath.Join(env.Dir, "x.go")); err == nil {
		t.Error("Prepare created the file")
	}
}
