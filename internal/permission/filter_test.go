package permission

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// The filter is Decide made cheap for walks: for every entry of a tree it
// must say what Decide says about reading that entry.
func TestReadFilterAgreesWithDecide(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "proj")
	home := filepath.Join(base, "home")
	files := []string{
		"src/main.go", "src/.env", ".env", ".env.local", "secrets/db/pw", "secrets/readme",
		"config/app.pem", "config/app.yaml", "docs/private/x.md", "docs/public/y.md",
		"logs/today.log", "a/b/c/d/id_rsa", "vendor/lib/key.pem",
	}
	for _, f := range files {
		p := filepath.Join(root, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("x"), 0o644)
	}
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o755)
	os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("k"), 0o600)
	// Links inside the tree pointing at denied files and directories.
	os.Symlink(filepath.Join(home, ".ssh", "id_rsa"), filepath.Join(root, "src", "key"))
	os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(root, "sshdir"))
	os.Symlink(filepath.Join(root, ".env"), filepath.Join(root, "docs", "env.txt"))
	os.Symlink("/proc/self/environ", filepath.Join(root, "envlink"))
	linkRoot := filepath.Join(base, "via-link")
	os.Symlink(root, linkRoot)

	rules := Rules{
		Deny: []string{"Read(.env)", "Read(.env.*)", "Read(~/.ssh/**)", "Read(*.pem)", "Read(/docs/private/)", "Read(**/id_rsa)"},
		Ask:  []string{"Read(secrets/**)", "Read(logs/*.log)"},
	}
	for _, walkRoot := range []string{root, linkRoot} {
		e, err := NewEngine(rules, root, home)
		if err != nil {
			t.Fatal(err)
		}
		c := Context{Mode: ModeDefault}
		f := e.ReadFilter(c, "Grep", walkRoot)
		var hidden, shown int
		var walk func(dir string)
		walk = func(dir string) {
			ents, _ := os.ReadDir(dir)
			for _, ent := range ents {
				p := filepath.Join(dir, ent.Name())
				got := f.Check(p, ent.Type())
				want := e.Decide(c, Access{Tool: "Grep", Kind: KindRead, Paths: []string{p}})
				if got.Behavior != want.Behavior {
					t.Errorf("walk from %s: filter says %s for %s, Decide says %s (%s)", walkRoot, got.Behavior, p, want.Behavior, want.Rule)
				}
				if got.Behavior != Allow {
					hidden++
					continue
				}
				shown++
				if ent.Type()&fs.ModeSymlink == 0 && ent.IsDir() {
					walk(p)
				}
			}
		}
		walk(walkRoot)
		if hidden < 10 || shown < 6 {
			t.Errorf("walk from %s: %d hidden, %d shown", walkRoot, hidden, shown)
		}
	}
}

// A walk whose root the user approved (an ask rule covers it) shows what
// that rule covers below it; a deny rule still hides its files.
func TestApprovedRootExtendsBelowIt(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"secrets/a.txt", "secrets/b/c.txt", "secrets/key.pem"} {
		p := filepath.Join(root, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("x"), 0o644)
	}
	e, _ := NewEngine(Rules{Ask: []string{"Read(secrets/**)"}, Deny: []string{"Read(*.pem)"}}, root, "/h")
	c := Context{Mode: ModeDefault}
	dir := filepath.Join(root, "secrets")
	if d := e.Decide(c, Access{Tool: "Grep", Kind: KindRead, Paths: []string{dir}}); d.Behavior != Ask {
		t.Fatalf("the root should ask: %s", d.Behavior)
	}
	f := e.ReadFilter(c, "Grep", dir)
	for name, want := range map[string]Behavior{"a.txt": Allow, "b": Allow, "b/c.txt": Allow, "key.pem": Deny} {
		typ := fs.FileMode(0)
		if name == "b" {
			typ = fs.ModeDir
		}
		if got := f.Check(filepath.Join(dir, name), typ).Behavior; got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	// From the project root, nobody approved secrets/: it stays hidden.
	f = e.ReadFilter(c, "Grep", root)
	if got := f.Check(dir, fs.ModeDir).Behavior; got != Ask {
		t.Errorf("secrets/ from the root: %s", got)
	}
}
