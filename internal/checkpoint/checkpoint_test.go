package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/session"
)

// fixture is a project directory, a blob directory and a store whose
// entries are kept for replay.
type fixture struct {
	t       *testing.T
	dir     string
	blobs   string
	entries []session.Entry
	s       *Store
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, dir: filepath.Join(base, "project"), blobs: filepath.Join(base, "blobs")}
	if err := os.MkdirAll(f.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f.s = New(f.blobs, func(e session.Entry) error { f.entries = append(f.entries, e); return nil }, nil)
	return f
}

func (f *fixture) path(rel string) string { return filepath.Join(f.dir, rel) }

// write changes a file the way a tool does: checkpoint first.
func (f *fixture) write(rel, content string) {
	f.t.Helper()
	p := f.path(rel)
	f.s.BeforeWrite(p)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) read(rel string) string {
	data, err := os.ReadFile(f.path(rel))
	if err != nil {
		return "<missing>"
	}
	return string(data)
}

func TestRestoreBringsBackEarliestContentAndRemovesCreatedFiles(t *testing.T) {
	f := newFixture(t)
	if err := os.WriteFile(f.path("a.go"), []byte("a0"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.s.Begin("one", 0)
	f.write("a.go", "a1")
	f.s.Begin("two", 2)
	f.write("a.go", "a2")
	f.write("a.go", "a3") // the second change of a turn is not recorded again
	f.write("sub/new.go", "n")
	f.s.Begin("three", 4)
	f.write("a.go", "a4")

	rep, err := f.s.Restore(2)
	if err != nil {
		t.Fatal(err)
	}
	if f.read("a.go") != "a1" || f.read("sub/new.go") != "<missing>" {
		t.Fatalf("after restoring to turn 2: a.go %q, new.go %q", f.read("a.go"), f.read("sub/new.go"))
	}
	if len(rep.Restored) != 1 || len(rep.Removed) != 1 || len(rep.Failed) != 0 {
		t.Fatalf("report %+v", rep)
	}
	// Replaying the entries gives the same turns and the same restore.
	r := New(f.blobs, nil, nil)
	r.Replay(f.entries)
	if got := r.Turns(); len(got) != 3 || got[1].Prompt != "two" || len(got[1].Files) != 2 || got[1].Keep != 2 {
		t.Fatalf("replayed turns %+v", got)
	}
	if _, err := r.Restore(1); err != nil {
		t.Fatal(err)
	}
	if f.read("a.go") != "a0" {
		t.Fatalf("after restoring to turn 1: %q", f.read("a.go"))
	}
	if _, err := r.Restore(9); err == nil {
		t.Fatal("a turn that does not exist was restored to")
	}
}

func TestRewindOfConversationForgetsLaterTurns(t *testing.T) {
	f := newFixture(t)
	f.s.Begin("one", 0)
	f.write("x", "1")
	f.s.Begin("two", 2)
	f.write("x", "2")
	f.s.Rewound(2, true, true, 2)
	n := f.s.Begin("again", 2)
	if n != 3 {
		t.Fatalf("turn numbers are reused: %d", n)
	}
	r := New(f.blobs, nil, nil)
	r.Replay(f.entries)
	got := r.Turns()
	if len(got) != 2 || got[0].N != 1 || got[1].N != 3 {
		t.Fatalf("turns after a rewind: %+v", got)
	}
	// The transcript's conversation is cut where the rewind said.
	var tr session.Transcript
	for _, s := range []string{"one", "a1", "two", "a2"} {
		m := llm.UserText(s)
		tr.Entries = append(tr.Entries, session.Entry{Type: session.TypeMessage, Message: &m})
	}
	tr.Entries = append(tr.Entries, f.entries...)
	if c := tr.Conversation(); len(c) != 2 || c[1].Text() != "a1" {
		t.Fatalf("conversation after the rewind: %+v", c)
	}
}

func TestShellCommandsAreNamedNotRestored(t *testing.T) {
	f := newFixture(t)
	f.s.Begin("one", 0)
	f.s.RanCommand("echo hi > out.txt && make")
	rep, err := f.s.Restore(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Commands) != 1 || !strings.Contains(strings.Join(rep.Commands[0].Writes, ","), "out.txt") {
		t.Fatalf("report %+v", rep)
	}
}

// A restore never follows a symbolic link: not one put where a directory
// was, nor one put where the file was, even when it points inside the
// project.
func TestRestoreNeverFollowsSymlinks(t *testing.T) {
	f := newFixture(t)
	outside := t.TempDir()
	if err := os.MkdirAll(f.path("src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.path("src/a.go"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.path("b.go"), []byte("old b"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.s.Begin("one", 0)
	f.write("src/a.go", "new")
	f.write("b.go", "new b")
	// A hostile command swaps the directory for a link out of the
	// project, and the file for a link to another project file.
	if err := os.Rename(f.path("src"), f.path("src.moved")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, f.path("src")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(f.path("b.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.path("victim"), []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(f.path("victim"), f.path("b.go")); err != nil {
		t.Fatal(err)
	}
	rep, err := f.s.Restore(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Failed) != 2 || len(rep.Restored) != 0 {
		t.Fatalf("report %+v", rep)
	}
	if _, err := os.Stat(filepath.Join(outside, "a.go")); err == nil {
		t.Fatal("the restore wrote through a link out of the project")
	}
	if f.read("victim") != "keep me" {
		t.Fatal("the restore wrote through a link to another file")
	}
}

// Transcript entries are not trusted to name files outside the blob
// directory, and damaged blobs are not written back.
func TestMalformedOrDamagedBlobsAreRefused(t *testing.T) {
	f := newFixture(t)
	target := f.path("t")
	if err := os.WriteFile(target, []byte("now"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := New(f.blobs, nil, nil)
	r.Replay([]session.Entry{
		{Type: session.TypeTurn, Checkpoint: &session.Checkpoint{Turn: 1}},
		{Type: session.TypeCheckpoint, Checkpoint: &session.Checkpoint{Turn: 1, Path: target, Blob: "../../etc/passwd"}},
	})
	rep, _ := r.Restore(1)
	if len(rep.Failed) != 1 || f.read("t") != "now" {
		t.Fatalf("malformed blob: %+v", rep)
	}
	f.s.Begin("one", 0)
	f.write("t", "changed")
	turns := f.s.Turns()
	blob := filepath.Join(f.blobs, turns[0].Files[0].Blob)
	if err := os.WriteFile(blob, []byte("tampered"), 0o600); err != nil {
		t.Fatal(err)
	}
	rep, _ = f.s.Restore(1)
	if len(rep.Failed) != 1 || f.read("t") != "changed" {
		t.Fatalf("damaged blob: %+v", rep)
	}
}

func TestSkippedPathsAreNotRecorded(t *testing.T) {
	f := newFixture(t)
	f.s = New(f.blobs, nil, func(p string) bool { return strings.HasSuffix(p, ".md") })
	f.s.Begin("one", 0)
	f.write("plan.md", "p")
	if got := f.s.Turns()[0].Files; len(got) != 0 {
		t.Fatalf("skipped path recorded: %+v", got)
	}
}
