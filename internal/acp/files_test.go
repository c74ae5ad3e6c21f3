package acp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

var editorCaps = sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}}

// File tools read the editor's unsaved buffer and write through the
// editor; the disk ends up with what the editor shows.
func TestFileToolsGoThroughTheEditor(t *testing.T) {
	base := t.TempDir()
	notes := filepath.Join(base, "project", "notes.txt")
	r := newRig(t, base, []fakemodel.Reply{
		{Name: "read", When: fakemodel.Match{LastUser: "fix the notes"},
			ToolCalls: []fakemodel.ToolCall{{ID: "r1", Name: "Read", Input: map[string]any{"file_path": "notes.txt"}}}},
		{Name: "edit", When: fakemodel.Match{ToolResult: "draft from the buffer"},
			ToolCalls: []fakemodel.ToolCall{{ID: "e1", Name: "Edit", Input: map[string]any{"file_path": "notes.txt", "old_string": "draft", "new_string": "final"}}}},
		{Name: "done", When: fakemodel.Match{ToolResult: "Edited"}, Text: "Fixed."},
	}, func(o *Options) { o.App.Mode = "acceptEdits" })
	if err := os.WriteFile(notes, []byte("saved text on disk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.client.files = map[string]string{notes: "draft from the buffer\n"}
	_, sess := r.startWith(editorCaps)
	r.prompt(sess.SessionId, "fix the notes")
	c := r.client
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.reads) == 0 || c.reads[0].Path != notes || c.reads[0].SessionId != sess.SessionId {
		t.Errorf("reads %+v", c.reads)
	}
	if len(c.writes) != 1 || c.writes[0].Path != notes || c.writes[0].Content != "final from the buffer\n" {
		t.Fatalf("writes %+v", c.writes)
	}
	if data, _ := os.ReadFile(notes); string(data) != "final from the buffer\n" {
		t.Errorf("disk after the edit: %q", data)
	}
	if u := r.model.Unused(); len(u) > 0 {
		t.Errorf("unused replies %v", u)
	}
}

// The permission engine decides before the editor is asked anything: a
// write plan mode refuses, or the user rejects, never reaches it.
func TestEditorGetsNoWriteTheSessionRefused(t *testing.T) {
	for _, tc := range []struct {
		name, mode, answer string
	}{{"plan mode", "plan", ""}, {"user says no", "default", "reject"}} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, "", []fakemodel.Reply{
				{Name: "write", When: fakemodel.Match{LastUser: "write it"},
					ToolCalls: []fakemodel.ToolCall{{ID: "w1", Name: "Write", Input: map[string]any{"file_path": "out.txt", "content": "x"}}}},
				{Name: "done", Text: "ok"},
			}, func(o *Options) { o.App.Mode = tc.mode })
			r.client.files = map[string]string{}
			r.client.answer = pick(tc.answer)
			_, sess := r.startWith(editorCaps)
			r.prompt(sess.SessionId, "write it")
			r.client.mu.Lock()
			defer r.client.mu.Unlock()
			if len(r.client.writes) != 0 {
				t.Errorf("the editor was asked to write: %+v", r.client.writes)
			}
			if _, err := os.Stat(filepath.Join(r.dir, "out.txt")); !os.IsNotExist(err) {
				t.Errorf("out.txt exists: %v", err)
			}
		})
	}
}

// An editor that offers no fs requests is never sent one.
func TestNoFsRequestsWithoutTheCapability(t *testing.T) {
	r := newRig(t, "", []fakemodel.Reply{
		{Name: "write", When: fakemodel.Match{LastUser: "write it"},
			ToolCalls: []fakemodel.ToolCall{{ID: "w1", Name: "Write", Input: map[string]any{"file_path": "out.txt", "content": "x"}}}},
		{Name: "done", Text: "ok"},
	}, func(o *Options) { o.App.Mode = "acceptEdits" })
	r.client.files = map[string]string{}
	_, sess := r.start()
	r.prompt(sess.SessionId, "write it")
	r.client.mu.Lock()
	defer r.client.mu.Unlock()
	if len(r.client.writes)+len(r.client.reads) != 0 {
		t.Errorf("fs requests without the capability: %+v %+v", r.client.writes, r.client.reads)
	}
	if data, err := os.ReadFile(filepath.Join(r.dir, "out.txt")); err != nil || !strings.HasPrefix(string(data), "x") {
		t.Errorf("out.txt: %q %v", data, err)
	}
}
