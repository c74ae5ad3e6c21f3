package runguard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A tree with Match compares only the entries it picks: a new one that
// matches is removed, any other new file or directory stays.
func TestTreeMatch(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "main.go"), []byte("package main"), 0o644)
	match := func(name string) bool { return strings.HasPrefix(name, "lefthook.") }
	g := New().WithSource(func() Set {
		return Set{CommandTrees: []Tree{{Path: root, Depth: 1, Match: match}}}
	})
	snap := g.Take()
	os.WriteFile(filepath.Join(root, "lefthook.yml"), []byte("pre-commit: evil"), 0o644)
	os.WriteFile(filepath.Join(root, "new.go"), []byte("package main"), 0o644)
	os.MkdirAll(filepath.Join(root, "build", "out"), 0o755)
	os.WriteFile(filepath.Join(root, "build", "out", "a.o"), []byte("x"), 0o644)
	changes := snap.Restore()
	if len(changes) != 1 || changes[0].Path != filepath.Join(root, "lefthook.yml") || changes[0].Err != nil {
		t.Fatalf("changes %+v, want lefthook.yml removed alone", changes)
	}
	for _, p := range []string{"main.go", "new.go", "build/out/a.o"} {
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Errorf("%s was touched: %v", p, err)
		}
	}
}

// What is watched only around commands is left out of a file tool's
// snapshot, and in a command's.
func TestTakeToolLeavesCommandFiles(t *testing.T) {
	dir := t.TempDir()
	npmrc := filepath.Join(dir, ".npmrc")
	mcp := filepath.Join(dir, ".mcp.json")
	g := New(mcp).WithSource(func() Set { return Set{CommandPaths: []string{npmrc}} })

	snap := g.TakeTool()
	os.WriteFile(npmrc, []byte("node-options=--require ./evil.js"), 0o644)
	os.WriteFile(mcp, []byte("{}"), 0o644)
	changes := snap.Restore()
	if len(changes) != 1 || changes[0].Path != mcp {
		t.Fatalf("after a file tool: %+v, want .mcp.json alone", changes)
	}
	if _, err := os.Stat(npmrc); err != nil {
		t.Fatal("a file tool's write of a command-only row was undone")
	}
	os.Remove(npmrc)

	snap = g.Take()
	os.WriteFile(npmrc, []byte("node-options=--require ./evil.js"), 0o644)
	if changes := snap.Restore(); len(changes) != 1 || changes[0].Path != npmrc {
		t.Fatalf("after a command: %+v, want .npmrc", changes)
	}
	if _, err := os.Stat(npmrc); !os.IsNotExist(err) {
		t.Error("a command's new .npmrc survived")
	}
}

// Restore may run again later (a background command that ended): what
// was written after the first comparison is put back then.
func TestRestoreAgain(t *testing.T) {
	dir := t.TempDir()
	envrc := filepath.Join(dir, ".envrc")
	g := New(envrc)
	snap := g.Take()
	if c := snap.Restore(); len(c) != 0 {
		t.Fatalf("nothing changed yet: %+v", c)
	}
	os.WriteFile(envrc, []byte("evil"), 0o644)
	if c := snap.Restore(); len(c) != 1 {
		t.Fatalf("second comparison: %+v", c)
	}
	if _, err := os.Stat(envrc); !os.IsNotExist(err) {
		t.Error("a late write survived the second comparison")
	}
}
