package builtin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/permission"
)

func TestWriteCreate(t *testing.T) {
	env := newEnv(t)
	got := runOK(t, NewWrite(), env, map[string]any{"file_path": "new/dir/f.txt", "content": "a\nb\n"})
	wantContains(t, got, "Created", "2 lines")
	p := filepath.Join(env.Dir, "new", "dir", "f.txt")
	if readString(t, p) != "a\nb\n" {
		t.Errorf("contents %q", readString(t, p))
	}
	info, _ := os.Stat(p)
	if info.Mode().Perm() != 0o644 {
		t.Errorf("new file mode %v, want 0644", info.Mode().Perm())
	}
	// Writing a file it created counts as having seen it.
	got = runOK(t, NewWrite(), env, map[string]any{"file_path": "new/dir/f.txt", "content": ""})
	wantContains(t, got, "Updated", "0 lines")
	if readString(t, p) != "" {
		t.Error("empty content not written")
	}
}

func TestWriteMustReadFirst(t *testing.T) {
	env := newEnv(t)
	put(t, env.Dir, map[string]string{"f.txt": "old\n"})
	msg := prepareErr(t, NewWrite(), env, map[string]any{"file_path": "f.txt", "content": "new"})
	wantContains(t, msg, "has not been read")

	runOK(t, NewRead(), env, map[string]any{"file_path": "f.txt"})
	c := prepare(t, NewWrite(), env, map[string]any{"file_path": "f.txt", "content": "new\n"})

	// The file changes between Prepare and Run: Run must refuse.
	p := filepath.Join(env.Dir, "f.txt")
	if err := os.WriteFile(p, []byte("changed behind our back\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := c.Run(t.Context())
	if !res.IsError || !strings.Contains(res.Content, "changed on disk") {
		t.Fatalf("stale write: %+v", res)
	}
	if readString(t, p) != "changed behind our back\n" {
		t.Error("stale write went through")
	}

	runOK(t, NewRead(), env, map[string]any{"file_path": "f.txt"})
	wantContains(t, runOK(t, NewWrite(), env, map[string]any{"file_path": "f.txt", "content": "new\n"}), "Updated", "1 line")
	if readString(t, p) != "new\n" {
		t.Error("write lost")
	}
}

func TestWriteKeepsModeAndLeavesNoTemp(t *testing.T) {
	env := newEnv(t)
	p := filepath.Join(env.Dir, "run.sh")
	put(t, env.Dir, map[string]string{"run.sh": "#!/bin/sh\n"})
	if err := os.Chmod(p, 0o751); err != nil {
		t.Fatal(err)
	}
	runOK(t, NewRead(), env, map[string]any{"file_path": "run.sh"})
	runOK(t, NewWrite(), env, map[string]any{"file_path": "run.sh", "content": "#!/bin/sh\necho hi\n"})
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o751 {
		t.Errorf("mode %v, want 0751", info.Mode().Perm())
	}
	ents, _ := os.ReadDir(env.Dir)
	if len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %q, want only run.sh", names)
	}
}

func TestWriteErrors(t *testing.T) {
	env := newEnv(t)
	put(t, env.Dir, map[string]string{"dir/": ""})
	for _, tc := range []struct {
		input any
		want  string
	}{
		{map[string]any{"file_path": "dir", "content": "x"}, "is a directory"},
		{map[string]any{"file_path": "x/", "content": "x"}, "names a directory"},
		{map[string]any{"file_path": "x"}, "content is required"},
		{map[string]any{"content": "x"}, "file_path is required"},
		{`{"file_path": "x", "content": 5}`, "content"},
	} {
		wantContains(t, prepareErr(t, NewWrite(), env, tc.input), tc.want)
	}
}

func TestWriteAccess(t *testing.T) {
	env := newEnv(t)
	a := prepare(t, NewWrite(), env, map[string]any{"file_path": "a/b.txt", "content": "x"}).Access()
	if NewWrite().Kind() != permission.KindWrite || len(a.Paths) != 1 || a.Paths[0] != filepath.Join(env.Dir, "a", "b.txt") {
		t.Errorf("Access = %+v", a)
	}
	if _, err := os.Stat(filepath.Join(env.Dir, "a")); err == nil {
		t.Error("Prepare created a directory")
	}
}
