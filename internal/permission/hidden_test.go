package permission

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The paths deny rules cover are found on disk: fixed paths, patterns at
// any depth (ignored files included), other names of denied files, and
// again after a directory changes.
func TestDeniedPathsAreFoundAndRefreshed(t *testing.T) {
	fx := newFixture(t)
	write := func(p, s string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, home := Canonical(fx.root), Canonical(fx.home)
	write(filepath.Join(root, ".gitignore"), ".env\nbuild/\n")
	write(filepath.Join(root, ".env"), "x")
	write(filepath.Join(root, "services", "api", ".env"), "x")
	write(filepath.Join(root, "build", "keys", "a.pem"), "x")
	write(filepath.Join(root, "src", "main.go"), "x")
	write(filepath.Join(home, ".ssh", "id_rsa"), "x")
	os.Link(filepath.Join(root, ".env"), filepath.Join(root, "docs-copy.txt"))
	e, err := NewEngine(Rules{Deny: []string{"Read(.env)", "Read(~/.ssh/**)", "Read(*.pem)", "Edit(/src/**)", "Read(//nonexistent/x)"}}, fx.root, fx.home)
	if err != nil {
		t.Fatal(err)
	}
	d := e.DeniedPaths()
	wantRead := []string{filepath.Join(home, ".ssh"), filepath.Join(root, ".env"), filepath.Join(root, "build", "keys", "a.pem"),
		filepath.Join(root, "docs-copy.txt"), filepath.Join(root, "services", "api", ".env")}
	slices.Sort(wantRead)
	if !slices.Equal(d.Read, wantRead) {
		t.Errorf("read %q\nwant %q", d.Read, wantRead)
	}
	if !slices.Equal(d.Write, []string{filepath.Join(root, "src")}) {
		t.Errorf("write %q", d.Write)
	}
	if !slices.Equal(d.ReadOutside, []string{filepath.Join(home, ".ssh")}) {
		t.Errorf("outside %q", d.ReadOutside)
	}
	// A directory a pattern starts from appears later: it is found.
	e2, _ := NewEngine(Rules{Deny: []string{"Read(~/.aws/*.json)"}}, fx.root, fx.home)
	if d := e2.DeniedPaths(); len(d.Read) != 0 {
		t.Errorf("nothing to deny yet: %q", d.Read)
	}
	write(filepath.Join(home, ".aws", "creds.json"), "x")
	if d := e2.DeniedPaths(); !slices.Equal(d.Read, []string{filepath.Join(home, ".aws", "creds.json")}) {
		t.Errorf("a directory created later: %q", d.Read)
	}
	// A new .env appears: the directory changed, so it is found; a removed
	// one is forgotten.
	write(filepath.Join(root, "src", "deep", ".env"), "x")
	if d := e.DeniedPaths(); !slices.Contains(d.Read, filepath.Join(root, "src", "deep", ".env")) {
		t.Errorf("a new denied file was not found: %q", d.Read)
	}
	os.RemoveAll(filepath.Join(root, "services"))
	if d := e.DeniedPaths(); slices.Contains(d.Read, filepath.Join(root, "services", "api", ".env")) {
		t.Errorf("a removed denied file is still listed: %q", d.Read)
	}
}
