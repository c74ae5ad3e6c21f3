package input

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// In these snapshots the cursor is drawn as [x]. A width of 10 leaves 7
// cells of text per row, plus the cell kept for the caret.
func TestViewWrapping(t *testing.T) {
	tests := []struct {
		name   string
		width  int
		value  string
		msgs   []tea.Msg
		want   string
		height int
	}{
		{"short", 10, "hi", nil, "> hi[ ]", 1},
		{"lines", 10, "one\ntwo", nil, "> one\n  two[ ]", 2},
		{"empty line kept", 10, "a\n\nb", keys("up"), "> a\n  [ ]\n  b", 3},
		{"words", 10, "the quick brown fox jumps", nil,
			"> the \n  quick \n  brown \n  fox \n  jumps[ ]", 5},
		{"cursor inside wrapped text", 10, "the quick brown", keys("up"),
			"> the \n  quick[ ]\n  brown", 3},
		{"caret in the kept cell", 10, "abcdefg", nil, "> abcdefg[ ]", 1},
		{"full row then one more", 10, "abcdefgh", nil, "> abcdefg\n  h[ ]", 2},
		{"space hangs at the edge", 8, "hello world", nil, "> hello \n  world[ ]", 2},
		{"cursor on hanging space", 8, "hello world", keys("up"), "> hello[ ]\n  world", 2},
		{"caret after hanging space", 8, "hello ", nil, "> hello \n  [ ]", 2},
		{"long word breaks", 8, "abcdefghijkl", keys("home"), "> [a]bcde\n  fghij\n  kl", 3},
		{"wide chars", 8, "日本語テキスト", nil, "> 日本\n  語テ\n  キス\n  ト[ ]", 4},
		{"wide char not split", 8, "ab日本語", nil, "> ab日\n  本語[ ]", 2},
		{"cursor on wide char", 8, "ab日本語", keys("home", "right", "right"), "> ab[日]\n  本語", 2},
		{"emoji", 10, "a👍🏽b👨‍👩‍👧", keys("left"), "> a👍🏽b[👨‍👩‍👧]", 1},
		{"combining", 8, "e\u0301e\u0301", keys("left"), "> e\u0301[e\u0301]", 1},
		{"no width no wrap", 0, "the quick brown fox jumps over", nil, "> the quick brown fox jumps over[ ]", 1},
		{"wrapping after newline in paste", 8, "", paste("ab cd ef\ngh"), "> ab cd \n  ef\n  gh[ ]", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := plainModel(tt.width)
			m.SetValue(tt.value)
			m, _ = feed(t, m, tt.msgs)
			if got := m.View(); got != tt.want {
				t.Errorf("view\n%s\nwant\n%s", got, tt.want)
			}
			if h := m.Height(); h != tt.height {
				t.Errorf("height %d, want %d", h, tt.height)
			}
			checkInvariants(t, m)
		})
	}
}

func TestViewResize(t *testing.T) {
	m := plainModel(0)
	m.SetValue("alpha beta gamma")
	for _, c := range []struct {
		width int
		want  string
	}{
		{13, "> alpha beta \n  gamma[ ]"},
		{12, "> alpha \n  beta \n  gamma[ ]"},
		{9, "> alpha \n  beta \n  gamma[ ]"},
		{40, "> alpha beta gamma[ ]"},
	} {
		m.SetWidth(c.width)
		if got := m.View(); got != c.want {
			t.Errorf("width %d: view\n%s\nwant\n%s", c.width, got, c.want)
		}
		checkInvariants(t, m)
	}
}

func TestViewPlaceholder(t *testing.T) {
	m := plainModel(12)
	m.SetStyles(Styles{
		Cursor:      func(s string) string { return "[" + s + "]" },
		Placeholder: func(s string) string { return "(" + s + ")" },
	})
	m.SetPlaceholder("Ask anything at all")
	if got, want := m.View(), "> [A](sk anythi)"; got != want {
		t.Errorf("focused: %q, want %q", got, want)
	}
	m.Blur()
	if got, want := m.View(), "> (Ask anythi)"; got != want {
		t.Errorf("blurred: %q, want %q", got, want)
	}
	m.Focus()
	m, _ = feed(t, m, typed("x"))
	if got, want := m.View(), "> x[ ]"; got != want {
		t.Errorf("typed: %q, want %q", got, want)
	}
	if m.Height() != 1 {
		t.Errorf("height %d", m.Height())
	}
}

func TestViewDefaultStyles(t *testing.T) {
	m := New()
	m.SetValue("ab")
	if got, want := m.View(), "> ab\x1b[7m \x1b[27m"; got != want {
		t.Errorf("view %q, want %q", got, want)
	}
	m.Blur()
	if got, want := m.View(), "> ab"; got != want {
		t.Errorf("blurred view %q, want %q", got, want)
	}
	m.Focus()
	m.SetVirtualCursor(false)
	if got, want := m.View(), "> ab"; got != want {
		t.Errorf("view without virtual cursor %q, want %q", got, want)
	}
	m.SetStyles(Styles{Prompt: func(s string) string { return "<" + s + ">" }})
	m.SetValue("a\nb")
	if got, want := m.View(), "<> >a\n<  >b"; got != want {
		t.Errorf("styled prompt %q, want %q", got, want)
	}
}

func TestCursorPosition(t *testing.T) {
	tests := []struct {
		name  string
		value string
		msgs  []tea.Msg
		x, y  int
	}{
		{"end", "hello world", nil, 7, 1},
		{"hanging space", "hello world", keys("up"), 7, 0},
		{"start", "hello world", keys("ctrl+home"), 2, 0},
		{"wide", "日本語", keys("left"), 2, 1},
		{"second line", "a\nbc", nil, 4, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := plainModel(8)
			m.SetValue(tt.value)
			m, _ = feed(t, m, tt.msgs)
			x, y, ok := m.CursorPosition()
			if !ok || x != tt.x || y != tt.y {
				t.Errorf("cursor at (%d, %d, %v), want (%d, %d)", x, y, ok, tt.x, tt.y)
			}
		})
	}
}

func TestMaxHeight(t *testing.T) {
	m := plainModel(10)
	m.SetMaxHeight(3)
	m.SetValue("1\n2\n3\n4\n5")
	steps := []struct {
		msgs []tea.Msg
		want string
	}{
		{nil, "  3\n  4\n  5[ ]"},
		{keys("up", "up"), "  3[ ]\n  4\n  5"},
		{keys("up"), "  2[ ]\n  3\n  4"},
		{keys("up"), "> 1[ ]\n  2\n  3"},
		{keys("down", "down"), "> 1\n  2\n  3[ ]"},
		{keys("ctrl+end"), "  3\n  4\n  5[ ]"},
		{keys("backspace", "backspace", "backspace", "backspace"), "> 1\n  2\n  3[ ]"},
		{keys("backspace", "backspace"), "> 1\n  2[ ]"},
	}
	for i, s := range steps {
		m, _ = feed(t, m, s.msgs)
		if got := m.View(); got != s.want {
			t.Fatalf("step %d: view\n%s\nwant\n%s", i, got, s.want)
		}
		if x, y, _ := m.CursorPosition(); y >= m.Height() || x < promptWidth {
			t.Fatalf("step %d: cursor (%d, %d) outside the %d shown rows", i, x, y, m.Height())
		}
	}
	if m.Height() != 2 {
		t.Errorf("height %d, want 2", m.Height())
	}
}
