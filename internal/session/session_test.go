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
	// Continuing removes the cut line: what is appended starts on a line
	// of its own, and the damage is gone for good.
	w2, err := Continue(tr)
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
	if len(tr.Warnings) != 0 || tr.Lines != 3 {
		t.Fatalf("after continuing: %d lines, warnings %v", tr.Lines, tr.Warnings)
	}
}

// A last line that is whole but lacks its newline is kept, and what is
// appended after it starts on a new line.
func TestUnterminatedWholeLineIsKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	content := `{"type":"header","version":1,"session_id":"s"}` + "\n" +
		`{"type":"message","message":{"role":"user","content":[{"type":"text","text":"whole"}]}}`
	os.WriteFile(path, []byte(content), 0o600)
	tr, err := Load(path)
	if err != nil || len(tr.Warnings) != 0 {
		t.Fatalf("%v %v", err, tr.Warnings)
	}
	w, err := Continue(tr)
	if err != nil {
		t.Fatal(err)
	}
	m := llm.UserText("next")
	w.Append(Entry{Type: TypeMessage, Message: &m})
	w.Close()
	tr, _ = Load(path)
	if conv := tr.Conversation(); len(conv) != 2 || conv[0].Text() != "whole" || len(tr.Warnings) != 0 {
		t.Fatalf("conversation %+v warnings %v", conv, tr.Warnings)
	}
}

// Damage in the middle of a transcript is reported by the resume that
// finds it, and not again by the next ones.
func TestDamageIsReportedOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	lines := []string{
		`{"type":"header","version":1,"session_id":"s"}`,
		`{"type":"message","message":{"role":"user","content":[{"type":"text","text":"read a"}]}}`,
		`{"type":"message","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}]}}`,
		`garbage where the results were`,
		`{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"done"}]}}`,
		`{"type":"message","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t0","content":"stray"}]}}`,
	}
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	tr, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	conv, answered, notes := tr.Resumable(false)
	if err := llm.CheckConversation(conv); err != nil {
		t.Fatalf("resumable conversation: %v", err)
	}
	if answered || len(tr.Warnings) != 1 || len(notes) != 2 {
		t.Fatalf("answered %v warnings %v notes %v", answered, tr.Warnings, notes)
	}
	for i, want := range []string{":3: the result of the Read call t1 is missing", ":6: a tool result for call t0"} {
		if !strings.Contains(notes[i], want) {
			t.Errorf("note %q lacks %q", notes[i], want)
		}
	}
	w, err := Continue(tr)
	if err != nil {
		t.Fatal(err)
	}
	w.Reported()
	m := llm.UserText("more")
	w.Append(Entry{Type: TypeMessage, Message: &m})
	w.Close()

	tr, err = Load(path)
	if err != nil {
		t.Fatal(err)
	}
	conv, _, notes = tr.Resumable(false)
	if len(tr.Warnings) != 0 || len(notes) != 0 {
		t.Fatalf("reported again: %v %v", tr.Warnings, notes)
	}
	if err := llm.CheckConversation(conv); err != nil || conv[len(conv)-1].Text() != "more" {
		t.Fatalf("conversation after the second resume: %v %+v", err, conv)
	}
}

// A new transcript never exists without its header, even when the header
// cannot be written.
func TestCreateLeavesNothingOnFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	w, err := Create(path, Entry{SessionID: "s"})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if _, err := Create(path, Entry{SessionID: "s"}); err == nil {
		t.Fatal("created over an existing transcript")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("directory holds %v", entries)
	}
	tr, err := Load(path)
	if err != nil || tr.Header.SessionID != "s" || tr.Lines != 1 {
		t.Fatalf("%+v %v", tr, err)
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

// A line over 64 MB is skipped and reported, in the middle of a file or
// cut off at its end; a resume then removes the cut one and goes on.
func TestOverlongLines(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 130 MB")
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	huge := `{"type":"message","message":{"role":"user","content":[{"type":"text","text":"` + strings.Repeat("x", maxLine) + `"}]}}`
	content := `{"type":"header","version":1,"session_id":"s"}` + "\n" +
		huge + "\n" +
		`{"type":"message","message":{"role":"user","content":[{"type":"text","text":"after"}]}}` + "\n" +
		huge[:maxLine+10]
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	tr, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Warnings) != 2 || !strings.Contains(tr.Warnings[0], ":2: line longer than") || !strings.Contains(tr.Warnings[1], ":4: the last line was cut off") {
		t.Fatalf("warnings %v", tr.Warnings)
	}
	if conv := tr.Conversation(); len(conv) != 1 || conv[0].Text() != "after" {
		t.Fatalf("conversation %+v", conv)
	}
	w, err := Continue(tr)
	if err != nil {
		t.Fatal(err)
	}
	w.Reported()
	w.Close()
	tr, err = Load(path)
	if err != nil || len(tr.Warnings) != 0 || tr.Lines != 4 {
		t.Fatalf("after a resume: %v %v, %d lines", err, tr.Warnings, tr.Lines)
	}
}

// FirstPrompt is the first line the user wrote, whatever came after
// (reminders, tool results, a compaction); AllSessions finds sessions of
// every project.
func TestFirstPromptAndAllSessions(t *testing.T) {
	cfg := t.TempDir()
	w, err := Create(NewStore(cfg, "/p/a").Path("s1"), Entry{SessionID: "s1", Cwd: "/p/a"})
	if err != nil {
		t.Fatal(err)
	}
	first := llm.Message{Role: llm.RoleUser, Content: []llm.Block{
		{Type: llm.BlockText, Text: "add rate limiting\nto the API"},
		{Type: llm.BlockText, Reminder: "plan_mode", Text: "<system-reminder>plan</system-reminder>"},
	}}
	later := llm.UserText("and tests")
	w.Append(Entry{Type: TypeMessage, Message: &first})
	w.Append(Entry{Type: TypeCompact, Summary: "we talked"})
	w.Append(Entry{Type: TypeMessage, Message: &later})
	w.Close()
	if _, err := Create(NewStore(cfg, "/p/b").Path("s2"), Entry{SessionID: "s2", Cwd: "/p/b"}); err != nil {
		t.Fatal(err)
	}
	tr, err := Load(NewStore(cfg, "/p/a").Path("s1"))
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.FirstPrompt(); got != "add rate limiting" {
		t.Fatalf("FirstPrompt = %q", got)
	}
	all, err := AllSessions(cfg)
	if err != nil || len(all) != 2 {
		t.Fatalf("AllSessions = %+v, %v", all, err)
	}
}

// FilesSeen keeps the last state of each file, in the order files were
// last seen; an entry without a path is damage.
func TestFilesSeen(t *testing.T) {
	content := strings.Join([]string{
		`{"type":"header","version":1,"session_id":"x"}`,
		`{"type":"file_seen","seen":{"path":"/p/a","mod_time":"2026-01-01T00:00:00Z","size":1}}`,
		`{"type":"file_seen","seen":{"path":"/p/b","mod_time":"2026-01-01T00:00:00Z","size":2}}`,
		`{"type":"file_seen","seen":{"path":"/p/a","mod_time":"2026-01-02T00:00:00Z","size":3}}`,
		`{"type":"file_seen","seen":{"mod_time":"2026-01-02T00:00:00Z","size":3}}`,
		``,
	}, "\n")
	tr, err := Parse(strings.NewReader(content), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	seen := tr.FilesSeen()
	if len(seen) != 2 || seen[0].Path != "/p/a" || seen[0].Size != 3 || seen[1].Path != "/p/b" || len(tr.Warnings) != 1 {
		t.Fatalf("seen %+v, warnings %v", seen, tr.Warnings)
	}
}
