package input

import (
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestHistoryNavigation(t *testing.T) {
	type step struct {
		msgs     []tea.Msg
		value    string
		row, col int
	}
	tests := []struct {
		name    string
		history []string
		width   int
		steps   []step
	}{
		{"draft restored", []string{"first", "second\nline"}, 0, []step{
			{typed("draft"), "draft", 0, 5},
			{keys("up"), "second\nline", 0, 0}, // longer than a row: cursor at start
			{keys("up"), "first", 0, 5},        // one row: cursor at end
			{keys("up"), "first", 0, 0},        // oldest: Up goes to the start
			{keys("up"), "first", 0, 0},
			{keys("down"), "second\nline", 1, 4},
			{keys("down"), "draft", 0, 5},
			{keys("down"), "draft", 0, 5},
		}},
		{"empty draft", []string{"a", "b"}, 0, []step{
			{keys("up"), "b", 0, 1},
			{keys("up"), "a", 0, 1},
			{keys("down", "down"), "", 0, 0},
		}},
		{"up moves within a multi-line draft first", []string{"old"}, 0, []step{
			{seq(typed("x"), keys("shift+enter"), typed("y")), "x\ny", 1, 1},
			{keys("up"), "x\ny", 0, 1},
			{keys("up"), "old", 0, 3},
			{keys("down"), "x\ny", 1, 1},
		}},
		{"wrapped rows count as rows", []string{"old"}, 10, []step{
			{typed("aaaa bbbb"), "aaaa bbbb", 0, 9},
			{keys("up"), "aaaa bbbb", 0, 4},
			{keys("up"), "old", 0, 3},
		}},
		{"down walks a recalled entry before going newer", []string{"one\ntwo\nthree", "last"}, 0, []step{
			{keys("up", "up"), "one\ntwo\nthree", 0, 0},
			{keys("down"), "one\ntwo\nthree", 1, 0},
			{keys("down"), "one\ntwo\nthree", 2, 0},
			{keys("down"), "last", 0, 4},
		}},
		{"no history", nil, 0, []step{
			{seq(typed("abc"), keys("up")), "abc", 0, 0},
			{keys("down"), "abc", 0, 3},
		}},
		{"edits to a recalled entry are dropped", []string{"a", "b"}, 0, []step{
			{keys("up"), "b", 0, 1},
			{typed("!"), "b!", 0, 2},
			{keys("up", "down"), "b", 0, 1},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New()
			m.SetWidth(tt.width)
			m.SetHistory(tt.history)
			for i, s := range tt.steps {
				m, _ = feed(t, m, s.msgs)
				if m.Value() != s.value {
					t.Fatalf("step %d: value %q, want %q", i, m.Value(), s.value)
				}
				if r, c := m.Cursor(); r != s.row || c != s.col {
					t.Fatalf("step %d: cursor (%d, %d), want (%d, %d)", i, r, c, s.row, s.col)
				}
				checkInvariants(t, m)
			}
		})
	}
}

func TestHistoryAPI(t *testing.T) {
	m := New()
	src := []string{"a", "b"}
	m.SetHistory(src)
	src[0] = "changed"
	m.AddHistory("b")  // duplicate of the newest
	m.AddHistory("  ") // blank
	m.AddHistory("c")
	m.AddHistory("a") // not consecutive: kept
	h := m.History()
	if want := []string{"a", "b", "c", "a"}; !slices.Equal(h, want) {
		t.Fatalf("history %q, want %q", h, want)
	}
	h[0] = "mutated"
	if m.History()[0] != "a" {
		t.Error("History returned the model's own slice")
	}

	// Submitting while browsing records the text and returns to a fresh draft.
	m.SetValue("draft")
	m, _ = feed(t, m, keys("up", "up"))
	m, out := feed(t, m, keys("enter"))
	if len(out) != 1 || out[0] != (Submitted{Text: "c"}) {
		t.Fatalf("submitted %v", out)
	}
	if m.Value() != "" {
		t.Errorf("value after submit %q", m.Value())
	}
	m, _ = feed(t, m, keys("up"))
	if m.Value() != "c" {
		t.Errorf("newest entry %q, want c", m.Value())
	}
	m, _ = feed(t, m, keys("down"))
	if m.Value() != "" {
		t.Errorf("draft after submit %q, want empty", m.Value())
	}

	// Reset keeps the history; SetValue ends browsing.
	m.Reset()
	if len(m.History()) != 5 {
		t.Errorf("reset dropped history: %q", m.History())
	}
	m, _ = feed(t, m, keys("up"))
	m.SetValue("new")
	m, _ = feed(t, m, keys("down"))
	if m.Value() != "new" {
		t.Errorf("down after SetValue gave %q", m.Value())
	}
}

func TestHistoryEntriesAreCleaned(t *testing.T) {
	m := New()
	m.SetHistory([]string{"a\r\nb\tc"})
	m, _ = feed(t, m, keys("up"))
	if got, want := m.Value(), "a\nb    c"; got != want {
		t.Errorf("recalled %q, want %q", got, want)
	}
}
