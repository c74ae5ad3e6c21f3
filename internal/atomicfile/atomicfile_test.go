package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteReplacesAndKeepsMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "f.txt")
	if err := Write(p, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	info, _ := os.Stat(p)
	if string(got) != "two" || info.Mode().Perm() != 0o640 {
		t.Fatalf("content %q mode %v; want two 0640", got, info.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
}

func TestWriteRefusesDirectory(t *testing.T) {
	if err := Write(t.TempDir(), []byte("x"), 0o644); err == nil {
		t.Fatal("writing over a directory must fail")
	}
}

func TestWriteCases(t *testing.T) {
	dir := t.TempDir()
	t.Run("new file exact mode", func(t *testing.T) {
		p := filepath.Join(dir, "deep", "new.txt")
		if err := Write(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		info, _ := os.Stat(p)
		if info.Mode().Perm() != 0o600 {
			t.Errorf("mode %v", info.Mode().Perm())
		}
	})
	t.Run("symlink kept", func(t *testing.T) {
		target := filepath.Join(dir, "target.txt")
		link := filepath.Join(dir, "link.txt")
		if err := os.WriteFile(target, []byte("old"), 0o640); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("target.txt", link); err != nil {
			t.Fatal(err)
		}
		if err := Write(link, []byte("new"), 0o644); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
			t.Error("link replaced by a file")
		}
		if readFile(t, target) != "new" {
			t.Error("target not written")
		}
		if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o640 {
			t.Errorf("target mode %v", fi.Mode().Perm())
		}
	})
	t.Run("directory refused", func(t *testing.T) {
		if err := Write(dir, []byte("x"), 0o644); err == nil {
			t.Error("wrote over a directory")
		}
	})
	t.Run("failure leaves no temp", func(t *testing.T) {
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		if os.Geteuid() == 0 {
			t.Skip("root ignores directory permissions")
		}
		if err := Write(filepath.Join(ro, "f"), []byte("x"), 0o644); err == nil {
			t.Error("write into read-only directory succeeded")
		}
		if ents, _ := os.ReadDir(ro); len(ents) != 0 {
			t.Errorf("left %d entries", len(ents))
		}
	})
	t.Run("no temp files remain", func(t *testing.T) {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".tmp") {
				t.Errorf("temp file %s left", e.Name())
			}
		}
	})
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
