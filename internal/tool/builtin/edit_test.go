package builtin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

// readFirst puts a file in place and reads it through the Read tool.
func readFirst(t *testing.T, env *tool.Env, name, content string) string {
	t.Helper()
	put(t, env.Dir, map[string]string{name: content})
	runOK(t, NewRead(), env, map[string]any{"file_path": name})
	return filepath.Join(env.Dir, name)
}

func TestEditSuccess(t *testing.T) {
	tests := []struct {
		name    string
		content string
		input   map[string]any
		want    string
		result  []string
	}{
		{"single", "a\nfoo := 1\nb\n",
			map[string]any{"old_string": "foo := 1", "new_string": "foo := 2"},
			"a\nfoo := 2\nb\n", []string{"Replaced 1 occurrence", "     2\tfoo := 2"}},
		{"delete", "keep\ndrop\nkeep2\n",
			map[string]any{"old_string": "drop\n", "new_string": ""},
			"keep\nkeep2\n", []string{"     1\tkeep"}},
		{"replace all", "x y x z x\n",
			map[string]any{"old_string": "x", "new_string": "w", "replace_all": true},
			"w y w z w\n", []string{"3 occurrences"}},
		{"multi-line", "func a() {\n\treturn 1\n}\n",
			map[string]any{"old_string": "\treturn 1\n}", "new_string": "\tx := 1\n\treturn x\n}"},
			"func a() {\n\tx := 1\n\treturn x\n}\n", []string{"     3\t\treturn x"}},
		{"crlf kept", "one\r\ntwo\r\nthree\r\n",
			map[string]any{"old_string": "one\ntwo", "new_string": "uno\ndos\nmas"},
			"uno\r\ndos\r\nmas\r\nthree\r\n", []string{"     3\tmas"}},
		{"crlf given for lf file", "one\ntwo\n",
			map[string]any{"old_string": "one\r\ntwo", "new_string": "1\r\n2"},
			"1\n2\n", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := newEnv(t)
			p := readFirst(t, env, "f.txt", tc.content)
			tc.input["file_path"] = "f.txt"
			got := runOK(t, NewEdit(), env, tc.input)
			wantContains(t, got, tc.result...)
			if s := readString(t, p); s != tc.want {
				t.Errorf("file = %q, want %q", s, tc.want)
			}
			if err := env.Files.CheckFresh(p); err != nil {
				t.Errorf("edited file not noted: %v", err)
			}
			if strings.Contains(got, "\r") {
				t.Error("snippet shows carriage returns")
			}
		})
	}
}

func TestEditErrors(t *testing.T) {
	const content = "alpha\n\tbeta  gamma\nalpha\nDelta\n"
	tests := []struct {
		name  string
		input map[string]any
		want  []string
	}{
		{"not found", map[string]any{"old_string": "omega", "new_string": "x"}, []string{"not found", "Read the file again"}},
		{"whitespace hint", map[string]any{"old_string": "    beta gamma", "new_string": "x"}, []string{"not found", "spacing"}},
		{"line number hint", map[string]any{"old_string": "     2\t\tbeta  gamma", "new_string": "x"}, []string{"line numbers"}},
		{"case hint", map[string]any{"old_string": "delta", "new_string": "x"}, []string{"letter case"}},
		{"many matches", map[string]any{"old_string": "alpha", "new_string": "x"}, []string{"2 times", "lines 1, 3", "replace_all"}},
		{"same strings", map[string]any{"old_string": "alpha", "new_string": "alpha"}, []string{"the same"}},
		{"empty old", map[string]any{"old_string": "", "new_string": "x"}, []string{"Write"}},
		{"missing new", map[string]any{"old_string": "alpha"}, []string{"new_string is required"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := newEnv(t)
			p := readFirst(t, env, "f.txt", content)
			tc.input["file_path"] = "f.txt"
			wantContains(t, prepareErr(t, NewEdit(), env, tc.input), tc.want...)
			if readString(t, p) != content {
				t.Error("file changed")
			}
		})
	}
	t.Run("missing file", func(t *testing.T) {
		env := newEnv(t)
		wantContains(t, prepareErr(t, NewEdit(), env, map[string]any{"file_path": "nope", "old_string": "a", "new_string": "b"}), "does not exist", "Write")
	})
	t.Run("not read", func(t *testing.T) {
		env := newEnv(t)
		put(t, env.Dir, map[string]string{"f": "a\n"})
		wantContains(t, prepareErr(t, NewEdit(), env, map[string]any{"file_path": "f", "old_string": "a", "new_string": "b"}), "has not been read")
	})
	t.Run("changed after prepare", func(t *testing.T) {
		env := newEnv(t)
		p := readFirst(t, env, "f", "a\n")
		c := prepare(t, NewEdit(), env, map[string]any{"file_path": "f", "old_string": "a", "new_string": "b"})
		if err := os.WriteFile(p, []byte("a\na\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if res := c.Run(t.Context()); !res.IsError || !strings.Contains(res.Content, "changed on disk") {
			t.Errorf("Run = %+v", res)
		}
	})
	t.Run("directory", func(t *testing.T) {
		env := newEnv(t)
		put(t, env.Dir, map[string]string{"d/": ""})
		wantContains(t, prepareErr(t, NewEdit(), env, map[string]any{"file_path": "d", "old_string": "a", "new_string": "b"}), "directory")
	})
}

func TestEditKeepsModeAndAccess(t *testing.T) {
	env := newEnv(t)
	p := readFirst(t, env, "s.sh", "echo a\n")
	if err := os.Chmod(p, 0o700); err != nil {
		t.Fatal(err)
	}
	env.Files.Note(p) // chmod changes no content or mtime, but be explicit
	c := prepare(t, NewEdit(), env, map[string]any{"file_path": "s.sh", "old_string": "a", "new_string": "b"})
	if a := c.Access(); NewEdit().Kind() != permission.KindWrite || a.Paths[0] != p {
		t.Errorf("Access = %+v", a)
	}
	if res := c.Run(t.Context()); res.IsError {
		t.Fatal(res.Content)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o700 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	if ents, _ := os.ReadDir(env.Dir); len(ents) != 1 {
		t.Errorf("%d entries left in directory", len(ents))
	}
}

func TestEditSnippetLongReplacement(t *testing.T) {
	env := newEnv(t)
	readFirst(t, env, "f", "top\nX\nbottom\n")
	repl := strings.Repeat("new line\n", 50) + "end"
	got := runOK(t, NewEdit(), env, map[string]any{"file_path": "f", "old_string": "X", "new_string": repl})
	wantContains(t, got, "     1\ttop", "more changed lines", "bottom")
	if strings.Count(got, "new line") > 31 {
		t.Errorf("snippet too long:\n%s", got)
	}
}
