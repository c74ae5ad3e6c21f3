package tool

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// fakeEditor holds buffers; save says whether a write reaches the disk.
type fakeEditor struct {
	buffers map[string]string
	save    bool
	fail    bool
	writes  int
}

func (f *fakeEditor) ReadText(_ context.Context, path string) (string, error) {
	if t, ok := f.buffers[path]; ok && !f.fail {
		return t, nil
	}
	return "", errors.New("no buffer")
}

func (f *fakeEditor) WriteText(_ context.Context, path, text string) error {
	f.writes++
	if f.fail {
		return errors.New("refused")
	}
	f.buffers[path] = text
	if f.save {
		return os.WriteFile(path, []byte(text), 0o644)
	}
	return nil
}

func TestEditorReadsAndWrites(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(p, []byte("disk"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ed := &fakeEditor{buffers: map[string]string{p: "buffer"}}
	env := &Env{Dir: dir, Editor: ed}
	if data, err := env.ReadFile(ctx, p); err != nil || string(data) != "buffer" {
		t.Errorf("read with a buffer: %q %v", data, err)
	}
	if data, err := env.ReadFile(ctx, filepath.Join(dir, "none")); err == nil {
		t.Errorf("read of a file neither has: %q", data)
	}
	// Kept unsaved: the caller must write the disk.
	if env.WriteThroughEditor(ctx, p, []byte("new")) {
		t.Error("an unsaved buffer counted as written")
	}
	ed.save = true
	if !env.WriteThroughEditor(ctx, p, []byte("saved")) {
		t.Error("a saved write did not count")
	}
	ed.fail = true
	if env.WriteThroughEditor(ctx, p, []byte("x")) {
		t.Error("a refused write counted")
	}
	if data, _ := env.ReadFile(ctx, p); string(data) != "saved" {
		t.Errorf("a failing editor's read falls back to disk: %q", data)
	}
	ed.fail, ed.writes = false, 0
	if env.WriteThroughEditor(ctx, p, []byte{0xff, 0xfe}) || ed.writes != 0 {
		t.Error("binary data was sent to the editor")
	}
	if (&Env{}).WriteThroughEditor(ctx, p, []byte("x")) {
		t.Error("no editor, yet written")
	}
}
