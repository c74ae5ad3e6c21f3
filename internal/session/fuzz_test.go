package session

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ponder-agent/ponder/internal/llm"
)

// FuzzParse feeds the loader cut, corrupted and foreign transcripts. It
// must never panic; it either fails with a message naming the file, or
// loads what it can and names every line it skipped. Whatever the damage,
// the conversation a resume continues from is valid for the model APIs,
// and after one resume (which reports the damage and appends a turn) the
// transcript loads without reporting it again and is still valid.
func FuzzParse(f *testing.F) {
	good := `{"type":"header","time":"2026-11-25T10:00:00Z","version":1,"session_id":"s1","cwd":"/p"}
{"type":"message","time":"2026-11-25T10:00:01Z","message":{"role":"user","content":[{"type":"text","text":"hello"}]}}
{"type":"message","time":"2026-11-25T10:00:02Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"a"}}]}}
{"type":"state","time":"2026-11-25T10:00:02Z","state":{"mode":"plan","slug":"brisk-sorting-harbor"}}
{"type":"plan_snapshot","time":"2026-11-25T10:00:03Z","plan":{"slug":"brisk-sorting-harbor","path":"/x.md","content":"# p"}}
{"type":"compact","time":"2026-11-25T10:00:04Z","summary":"we talked"}
{"type":"pending_approval","time":"2026-11-25T10:00:05Z","pending":{"tool_use_id":"t9","plan":"# p","plan_file":"/x.md","call_index":0}}
`
	f.Add([]byte(good))
	f.Add([]byte(good[:len(good)/2]))
	f.Add([]byte(strings.ReplaceAll(good, `"type":"message"`, `"type":"mesage"`)))
	f.Add([]byte("not json\n\x00\xff\n{}\n[]\nnull\n"))
	f.Add([]byte(`{"type":"message","message":{"role":"user","content":[{"type":"image"}]}}`))
	f.Add([]byte(`{"type":"header","version":99,"session_id":"future"}` + "\n"))
	f.Add([]byte{})
	f.Add([]byte(strings.Replace(good, `{"type":"state"`, `{"type":"stat`, 1)))
	f.Add([]byte(good + `{"type":"message","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"late"}]}}` + "\n"))
	f.Add([]byte(good + `{"type":"message","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}]}}` + "\n"))
	f.Add([]byte(good + `{"type":"repaired","through":3}` + "\ngarbage\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Parse(bytes.NewReader(data), "fuzz.jsonl")
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.jsonl") {
				t.Fatalf("the error does not name the file: %v", err)
			}
			return
		}
		for _, w := range tr.Warnings {
			if !strings.HasPrefix(w, "fuzz.jsonl") || !utf8.ValidString(w) && utf8.ValidString(string(data)) {
				t.Fatalf("warning without the file name: %q", w)
			}
		}
		for _, m := range tr.Conversation() {
			if m.Role != "user" && m.Role != "assistant" {
				t.Fatalf("a message with role %q got through", m.Role)
			}
		}
		_ = tr.PendingApproval()
		_ = tr.LastState()
		_ = tr.LastPlan(true)
		_ = tr.Usage()
		conv, _, _ := tr.Resumable(false)
		if err := llm.CheckConversation(conv); err != nil {
			t.Fatalf("the conversation to resume from is not valid: %v\n%+v", err, conv)
		}
		resumeTwice(t, data)
	})
}

// resumeTwice writes data to a file, resumes it as ponder does (continue
// the file, report the damage, add a turn with a tool call), and loads it
// again: nothing is reported a second time, and the conversation is
// valid and ends with the added turn.
func resumeTwice(t *testing.T, data []byte) {
	path := filepath.Join(t.TempDir(), "fuzz.jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	tr, err := Load(path)
	if err != nil {
		return
	}
	conv, answered, notes := tr.Resumable(false)
	w, err := Continue(tr)
	if err != nil {
		t.Fatalf("continuing: %v", err)
	}
	if answered {
		w.Append(Entry{Type: TypeMessage, Message: &conv[len(conv)-1]})
	}
	if len(tr.Warnings) > 0 || len(notes) > 0 {
		w.Reported()
	}
	id := "fuzz-call"
	for bytes.Contains(data, []byte(id)) {
		id += "x"
	}
	turn := []llm.Message{
		llm.UserText("after the damage"),
		{Role: llm.RoleAssistant, Content: []llm.Block{llm.ToolUseBlock(id, "Read", "{}")}},
		{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockToolResult, ToolUseID: id, Content: "read"}}},
	}
	for i := range turn {
		if err := w.Append(Entry{Type: TypeMessage, Message: &turn[i]}); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()

	again, err := Load(path)
	if err != nil {
		t.Fatalf("loading after a resume: %v", err)
	}
	conv, _, notes = again.Resumable(false)
	for _, w := range append(again.Warnings, notes...) {
		if !strings.Contains(w, "newer ponder") {
			t.Fatalf("reported again after a resume: %q (first time: %v)", w, tr.Warnings)
		}
	}
	if err := llm.CheckConversation(conv); err != nil {
		t.Fatalf("not valid after a resume: %v\n%+v", err, conv)
	}
	if n := len(conv); n < 3 || conv[n-1].Content[0].ToolUseID != id {
		t.Fatalf("the added turn is missing: %+v", conv)
	}
}
