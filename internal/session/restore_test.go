package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm"
)

// writeTurns appends n user messages.
func writeTurns(t *testing.T, w *Writer, from, n int) {
	t.Helper()
	for i := from; i < from+n; i++ {
		m := llm.UserText("turn " + string(rune('a'+i)))
		if err := w.Append(Entry{Type: TypeMessage, Message: &m}); err != nil {
			t.Fatal(err)
		}
	}
}

// A transcript deleted while the session runs is written again, whole,
// at the next append, and the user is told.
func TestDeletedTranscriptIsRestored(t *testing.T) {
	path := filepath.Join(t.TempDir(), "projects", "p", "s1.jsonl")
	w, err := Create(path, Entry{SessionID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var warnings []string
	w.OnRestore(func(m string) { warnings = append(warnings, m) })
	writeTurns(t, w, 0, 2)
	if err := os.RemoveAll(filepath.Dir(path)); err != nil {
		t.Fatal(err)
	}
	writeTurns(t, w, 2, 2)
	if len(warnings) != 1 || !strings.Contains(warnings[0], "deleted") || !strings.Contains(warnings[0], path) {
		t.Fatalf("warnings %q", warnings)
	}
	tr, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if conv := tr.Conversation(); len(conv) != 4 || tr.Header.SessionID != "s1" {
		t.Fatalf("restored %d messages, header %+v", len(conv), tr.Header)
	}
	writeTurns(t, w, 4, 1)
	if len(warnings) != 1 {
		t.Errorf("warned again: %q", warnings)
	}
	if tr, _ := Load(path); len(tr.Conversation()) != 5 {
		t.Errorf("after restoring, appends go elsewhere")
	}
}

// A transcript replaced by another file (or a link planted in its place)
// is put back, and the other file is kept aside, never written through.
func TestReplacedTranscriptIsPutBack(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s1.jsonl")
	w, err := Create(path, Entry{SessionID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var warnings []string
	w.OnRestore(func(m string) { warnings = append(warnings, m) })
	writeTurns(t, w, 0, 1)
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("not yours\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Remove(path)
	if err := os.Symlink(victim, path); err != nil {
		t.Fatal(err)
	}
	writeTurns(t, w, 1, 1)
	if data, _ := os.ReadFile(victim); string(data) != "not yours\n" {
		t.Fatalf("wrote through the link: %q", data)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "replaced") {
		t.Fatalf("warnings %q", warnings)
	}
	if info, err := os.Lstat(path); err != nil || !info.Mode().IsRegular() {
		t.Fatalf("path is not the transcript again: %v", err)
	}
	if tr, err := Load(path); err != nil || len(tr.Conversation()) != 2 {
		t.Fatalf("restored transcript: %v", err)
	}
	asides, _ := filepath.Glob(path + ".replaced-*")
	if len(asides) != 1 {
		t.Fatalf("the other file was not kept: %v", asides)
	}
	if target, err := os.Readlink(asides[0]); err != nil || target != victim {
		t.Errorf("kept %q (%v)", target, err)
	}
}

// A transcript deleted after the session's last entry is put back as the
// session ends.
func TestTranscriptDeletedAfterTheLastEntryIsRestoredOnClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	w, err := Create(path, Entry{SessionID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	warned := 0
	w.OnRestore(func(string) { warned++ })
	writeTurns(t, w, 0, 2)
	os.Remove(path)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if tr, err := Load(path); err != nil || len(tr.Conversation()) != 2 || warned != 1 {
		t.Fatalf("after close: %v, warned %d", err, warned)
	}
}
