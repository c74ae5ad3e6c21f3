package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm"
)

func TestWriteAndLoadRoundTrip(t *testing.T) {
	store := NewStore(t.TempDir(), "/home/me/my project")
	path := store.Path("s1")
	w, err := Create(path, Entry{SessionID: "s1", Cwd: "/home/me/my project"})
	if err != nil {
		t.Fatal(err)
	}
	msgs := []llm.Message{llm.UserText("hello"), {Role: llm.RoleAssistant, Content: []llm.Block{llm.TextBlock("hi")}}}
	for i := range msgs {
		if err := w.Append(Entry{Type: TypeMessage, Message: &msgs[i]}); err != nil {
			t.Fatal(err)
		}
	}
	w.Append(Entry{Type: TypeState, State: []byte(`{"mode":"plan"}`)})
	w.Close()

	tr, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Header.SessionID != "s1" || tr.Header.Version != FormatVersion {
		t.Errorf("header = %+v", tr.Header)
	}
	conv := tr.Conversation()
	if len(conv) != 2 || conv[1].Text() != "hi" {
		t.Errorf("conversation = %+v", conv)
	}
	if string(tr.LastState()) != `{"mode":"plan"}` {
		t.Errorf("state = %s", tr.LastState())
	}
	if len(tr.Warnings) != 0 {
		t.Errorf("warnings = %v", tr.Warnings)
	}
	if got := filepath.Base(store.Dir); got != "-home-me-my-project" {
		t.Errorf("project key = %q", got)
	}
}

func TestCutLastLineIsDroppedWithWarning(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	w, _ := Create(path, Entry{SessionID: "s"})
	m := llm.UserText("kept")
	w.Append(Entry{Type: TypeMessage, Message: &m})
	w.Close()
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"message","message":{"role":"user","content":[{"type":"text","te`)
	f.Close()

	tr, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Conversation()) != 1 {
		t.Fatalf("conversation = %+v", tr.Conversation())
	}
	if len(tr.Warnings) != 1 || !strings.Contains(tr.Warnings[0], "cut off") || !strings.Contains(tr.Warnings[0], ":3:") {
		t.Fatalf("warnings = %v", tr.Warnings)
	}
	// Appending after a cut line starts on a fresh line.
	w2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	m2 := llm.UserText("after")
	w2.Append(Entry{Type: TypeMessage, Message: &m2})
	w2.Close()
	tr, _ = Load(path)
	if conv := tr.Conversation(); len(conv) != 2 || conv[1].Text() != "after" {
		t.Fatalf("conversation after reopening = %+v", conv)
	}
}

func TestCorruptAndForeignLinesAreSkipped(t *testing.T) {
	content := strings.Join([]string{
		`{"type":"header","version":1,"session_id":"x"}`,
		`not json at all`,
		`{"type":"martian","payload":1}`,
		`{"type":"message","message":{"role":"system","content":[]}}`,
		`{"type":"message","message":{"role":"user","content":[{"type":"text","text":"ok"}]}}`,
		``,
	}, "\n")
	tr, err := Parse(strings.NewReader(content), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Conversation()) != 1 || len(tr.Warnings) != 3 {
		t.Fatalf("conversation %d, warnings %v", len(tr.Conversation()), tr.Warnings)
	}
	for i, want := range []string{"t.jsonl:2:", "t.jsonl:3: unknown entry type", "t.jsonl:4: message entry"} {
		if !strings.HasPrefix(tr.Warnings[i], want) {
			t.Errorf("warning %d = %q, want prefix %q", i, tr.Warnings[i], want)
		}
	}
}

func TestCompactionAndPending(t *testing.T) {
	m1, m2 := llm.UserText("old"), llm.UserText("new")
	tr := &Transcript{Entries: []Entry{
		{Type: TypeMessage, Message: &m1},
		{Type: TypeCompact, Summary: "we talked"},
		{Type: TypeMessage, Message: &m2},
		{Type: TypePending, Pending: &Pending{ToolUseID: "t1"}},
	}}
	conv := tr.Conversation()
	if len(conv) != 2 || !strings.Contains(conv[0].Text(), "we talked") || conv[1].Text() != "new" {
		t.Fatalf("conversation = %+v", conv)
	}
	if p := tr.PendingApproval(); p == nil || p.ToolUseID != "t1" {
		t.Fatalf("pending = %+v", p)
	}
	tr.Entries = append(tr.Entries, Entry{Type: TypeResolved})
	if tr.PendingApproval() != nil {
		t.Fatal("a resolved approval is no longer pending")
	}
}

func TestStoreListFindLatest(t *testing.T) {
	store := Store{Dir: t.TempDir()}
	for _, id := range []string{"aaaa-1", "bbbb-2"} {
		w, err := Create(store.Path(id), Entry{SessionID: id})
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
	}
	if in, err := store.Find("bbbb"); err != nil || in.ID != "bbbb-2" {
		t.Fatalf("Find = %+v, %v", in, err)
	}
	if _, err := store.Find("zzz"); err == nil {
		t.Fatal("unknown id must fail")
	}
	list, _ := store.List()
	if len(list) != 2 {
		t.Fatalf("List = %+v", list)
	}
}
