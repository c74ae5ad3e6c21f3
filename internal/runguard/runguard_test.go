package runguard

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Whatever a call does to a watched file (create it, change it, remove
// it, put a link in its place, change what its link leads to), Restore
// makes it as it was and names it.
func TestRestorePutsBackEveryKindOfChange(t *testing.T) {
	dir := t.TempDir()
	created := filepath.Join(dir, "created.json")
	changed := filepath.Join(dir, "changed.json")
	removed := filepath.Join(dir, "removed.json")
	linked := filepath.Join(dir, "linked.json")
	through := filepath.Join(dir, "through.json")
	target := filepath.Join(dir, "target.json")
	untouched := filepath.Join(dir, "untouched.json")
	for _, p := range []string{changed, removed, linked, target, untouched} {
		if err := os.WriteFile(p, []byte(`{"was":"`+filepath.Base(p)+`"}`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(target, through); err != nil {
		t.Fatal(err)
	}
	g := New(created, changed, removed, linked, through, untouched)
	snap := g.Take()

	os.WriteFile(created, []byte("hooks"), 0o644)
	os.WriteFile(changed, []byte("hooks"), 0o644)
	os.Remove(removed)
	os.Remove(linked)
	os.Symlink(filepath.Join(dir, "elsewhere"), linked)
	os.WriteFile(target, []byte("hooks"), 0o644)

	got := map[string]bool{}
	for _, c := range snap.Restore() {
		if c.Err != nil {
			t.Errorf("%s: %v", c.Path, c.Err)
		}
		got[c.Path] = true
	}
	for _, p := range []string{created, changed, removed, linked, through} {
		if !got[p] {
			t.Errorf("%s not reported", p)
		}
	}
	if got[untouched] {
		t.Error("an untouched file was reported")
	}
	if _, err := os.Lstat(created); !os.IsNotExist(err) {
		t.Error("a created file was left")
	}
	for _, p := range []string{changed, removed, linked, target} {
		data, err := os.ReadFile(p)
		if err != nil || string(data) != `{"was":"`+filepath.Base(p)+`"}` {
			t.Errorf("%s = %q, %v", p, data, err)
		}
	}
	if info, err := os.Lstat(linked); err != nil || info.Mode()&os.ModeSymlink != 0 {
		t.Errorf("the link put in place of %s stayed", linked)
	}
	if l, _ := os.Readlink(through); l != target {
		t.Errorf("the link %s now leads to %q", through, l)
	}
	if len(g.Take().Restore()) != 0 {
		t.Error("a second comparison found changes")
	}
}

// What a call the user approved changes is the user's choice: a guarded
// call running meanwhile puts nothing back.
func TestApprovedCallsAreLeftAlone(t *testing.T) {
	p := filepath.Join(t.TempDir(), "settings.json")
	g := New(p)
	snap := g.Take()
	done := g.Approved()
	os.WriteFile(p, []byte("approved"), 0o644)
	done()
	if c := snap.Restore(); len(c) != 0 {
		t.Fatalf("restored %v", c)
	}
	if data, _ := os.ReadFile(p); string(data) != "approved" {
		t.Fatalf("the approved change was undone: %q", data)
	}
	// Afterwards, a guarded call is guarded again.
	snap = g.Take()
	os.WriteFile(p, []byte("planted"), 0o644)
	if c := snap.Restore(); len(c) != 1 {
		t.Fatalf("restored %v", c)
	}
	if data, _ := os.ReadFile(p); string(data) != "approved" {
		t.Fatalf("content %q", data)
	}
}

// In a watched directory, any new file is removed and a changed one put
// back, whatever its name.
func TestWatchedDirectories(t *testing.T) {
	hooks := filepath.Join(t.TempDir(), "hooks")
	os.Mkdir(hooks, 0o755)
	sample := filepath.Join(hooks, "post-merge")
	os.WriteFile(sample, []byte("sample"), 0o755)
	inert := filepath.Join(hooks, "pre-push.sample")
	g := New().WithDirs(hooks, filepath.Join(t.TempDir(), "absent"))
	snap := g.Take()
	os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte("evil"), 0o755)
	os.WriteFile(sample, []byte("evil"), 0o755)
	os.WriteFile(inert, []byte("git init writes these"), 0o755)
	if c := snap.Restore(); len(c) != 2 {
		t.Fatalf("changes %v", c)
	}
	if _, err := os.Lstat(filepath.Join(hooks, "pre-commit")); !os.IsNotExist(err) {
		t.Error("a new hook was left")
	}
	if data, _ := os.ReadFile(sample); string(data) != "sample" {
		t.Errorf("post-merge = %q", data)
	}
	if _, err := os.Stat(inert); err != nil {
		t.Error("git's inert sample was removed")
	}
}

// A call that puts a link in place of a watched file's directory (mv
// .ponder away, ln -s elsewhere .ponder) does not leave the settings it
// leads to in force: the link goes, and the file is put back.
func TestDirectoryReplacedByALink(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".ponder")
	os.Mkdir(dir, 0o755)
	settings := filepath.Join(dir, "settings.json")
	os.WriteFile(settings, []byte(`{}`), 0o644)
	elsewhere := filepath.Join(t.TempDir(), "evil")
	os.Mkdir(elsewhere, 0o755)
	os.WriteFile(filepath.Join(elsewhere, "settings.json"), []byte(`{"hooks":{}}`), 0o644)
	g := New(settings)
	snap := g.Take()
	os.Rename(dir, filepath.Join(root, "moved"))
	os.Symlink(elsewhere, dir)
	for _, c := range snap.Restore() {
		if c.Err != nil {
			t.Fatalf("%s not put back: %v", c.Path, c.Err)
		}
	}
	if info, err := os.Lstat(dir); err != nil || !info.IsDir() {
		t.Fatalf("%s is not a directory again: %v", dir, err)
	}
	if data, _ := os.ReadFile(settings); string(data) != `{}` {
		t.Fatalf("settings = %q", data)
	}
	if data, _ := os.ReadFile(filepath.Join(elsewhere, "settings.json")); string(data) != `{"hooks":{}}` {
		t.Fatalf("the guard wrote through the link: %q", data)
	}
}

// In a watched tree, a file planted at any depth, in a directory of its
// own, goes with the directory; a changed file and a removed one are put
// back; the records left out are left alone.
func TestWatchedTrees(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config")
	os.MkdirAll(filepath.Join(cfg, "skills", "kept"), 0o755)
	os.MkdirAll(filepath.Join(cfg, "projects"), 0o755)
	kept := filepath.Join(cfg, "skills", "kept", "SKILL.md")
	os.WriteFile(kept, []byte("kept"), 0o644)
	settings := filepath.Join(cfg, "settings.json")
	os.WriteFile(settings, []byte("{}"), 0o644)
	g := New().WithTrees(Tree{Path: cfg, Skip: []string{"projects"}}, Tree{Path: filepath.Join(filepath.Dir(cfg), ".vscode")})
	snap := g.Take()
	os.MkdirAll(filepath.Join(filepath.Dir(cfg), ".vscode", "sub"), 0o755)
	os.WriteFile(filepath.Join(filepath.Dir(cfg), ".vscode", "sub", "settings.json"), []byte("{}"), 0o644)

	planted := []string{
		filepath.Join(cfg, "trust.json"),
		filepath.Join(cfg, "commands", "x.md"),
		filepath.Join(cfg, "skills", "x", "deep", "SKILL.md"),
	}
	for _, p := range planted {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("evil"), 0o644)
	}
	os.WriteFile(settings, []byte(`{"hooks":{}}`), 0o644)
	os.Remove(kept)
	record := filepath.Join(cfg, "projects", "session.jsonl")
	os.WriteFile(record, []byte("a transcript"), 0o644)

	for _, c := range snap.Restore() {
		if c.Err != nil {
			t.Errorf("%s: %v", c.Path, c.Err)
		}
	}
	for _, p := range append(planted, filepath.Join(cfg, "commands"), filepath.Join(cfg, "skills", "x"), filepath.Join(filepath.Dir(cfg), ".vscode")) {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s was left", p)
		}
	}
	if data, _ := os.ReadFile(settings); string(data) != "{}" {
		t.Errorf("settings = %q", data)
	}
	if data, _ := os.ReadFile(kept); string(data) != "kept" {
		t.Errorf("a removed skill was not put back: %q", data)
	}
	if data, _ := os.ReadFile(record); string(data) != "a transcript" {
		t.Error("a record ponder appends to was touched")
	}
	if c := g.Take().Restore(); len(c) != 0 {
		t.Errorf("a second comparison found %v", c)
	}
}

// A link put in place of a tree, or of a directory in it, goes, and the
// files are written again, not through it.
func TestLinksInPlaceOfTrees(t *testing.T) {
	base := t.TempDir()
	tree := filepath.Join(base, ".claude")
	os.MkdirAll(filepath.Join(tree, "agents"), 0o755)
	agent := filepath.Join(tree, "agents", "a.md")
	os.WriteFile(agent, []byte("agent"), 0o644)
	elsewhere := t.TempDir()
	os.WriteFile(filepath.Join(elsewhere, "a.md"), []byte("evil"), 0o644)
	g := New().WithTrees(Tree{Path: tree}, Tree{Path: filepath.Join(base, ".husky")})
	snap := g.Take()
	os.Rename(filepath.Join(tree, "agents"), filepath.Join(base, "moved"))
	os.Symlink(elsewhere, filepath.Join(tree, "agents"))
	os.Symlink(elsewhere, filepath.Join(base, ".husky"))
	snap.Restore()
	if info, err := os.Lstat(filepath.Join(tree, "agents")); err != nil || !info.IsDir() {
		t.Fatalf("agents is not a directory again: %v", err)
	}
	if data, _ := os.ReadFile(agent); string(data) != "agent" {
		t.Errorf("agent = %q", data)
	}
	if data, _ := os.ReadFile(filepath.Join(elsewhere, "a.md")); string(data) != "evil" {
		t.Error("the guard wrote through the link")
	}
	if _, err := os.Lstat(filepath.Join(base, ".husky")); !os.IsNotExist(err) {
		t.Error("a link planted as a new tree was left")
	}
}

// A file the guard compares by its signature is still compared by
// content when written in the same tick as the snapshot, and a change
// an inert test accepts stands.
func TestSameSizeChangeAndInertChange(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "config")
	os.WriteFile(p, []byte("aaaa"), 0o644)
	q := filepath.Join(dir, "inert")
	os.WriteFile(q, []byte("one"), 0o644)
	r := filepath.Join(dir, "new-inert")
	inert := func(before, after []byte) bool { return string(after) == "two" }
	g := New(p, q, r).WithInert(q, inert).WithInert(r, inert)
	g.Take() // fills the cache
	snap := g.Take()
	os.WriteFile(p, []byte("bbbb"), 0o644)
	os.WriteFile(q, []byte("two"), 0o644)
	os.WriteFile(r, []byte("two"), 0o644)
	c := snap.Restore()
	if len(c) != 1 || c[0].Path != p {
		t.Fatalf("changes %v", c)
	}
	if data, _ := os.ReadFile(p); string(data) != "aaaa" {
		t.Errorf("content %q", data)
	}
	for _, f := range []string{q, r} {
		if data, _ := os.ReadFile(f); string(data) != "two" {
			t.Errorf("an inert change of %s was undone: %q", f, data)
		}
	}
}

// The bounds on what the guard walks when a call starts are no place to
// hide: what the call made is walked whole, past any number of entries
// and levels, while a deep file that was there before stays.
func TestNoHidingPastTheBounds(t *testing.T) {
	tree := filepath.Join(t.TempDir(), ".claude")
	deep := func(base string, n int) string {
		p := base
		for i := range n {
			p = filepath.Join(p, fmt.Sprintf("d%d", i))
		}
		return p
	}
	old := filepath.Join(deep(filepath.Join(tree, "old"), maxDepth+2), "keep.md")
	os.MkdirAll(filepath.Dir(old), 0o755)
	os.WriteFile(old, []byte("mine"), 0o644)
	g := New().WithTrees(Tree{Path: tree})
	snap := g.Take()

	junk := filepath.Join(tree, "aaa")
	os.MkdirAll(junk, 0o755)
	for i := range maxTreeEntries + 1 {
		os.WriteFile(filepath.Join(junk, fmt.Sprint(i)), nil, 0o644)
	}
	planted := []string{
		filepath.Join(tree, "zzz", "skills", "x", "SKILL.md"),
		filepath.Join(deep(filepath.Join(tree, "skills"), maxDepth+3), "SKILL.md"),
		filepath.Join(filepath.Dir(old), "planted.md"),
	}
	for _, p := range planted {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("evil"), 0o644)
	}
	snap.Restore()
	for _, p := range append(planted[:2], junk) {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s was left", p)
		}
	}
	if data, _ := os.ReadFile(old); string(data) != "mine" {
		t.Errorf("a deep file that was there before was touched: %q", data)
	}
}
