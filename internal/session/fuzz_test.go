package session

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse feeds the loader cut, corrupted and foreign transcripts. It
// must never panic; it either fails with a message naming the file, or
// loads what it can and names every line it skipped.
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
	})
}
