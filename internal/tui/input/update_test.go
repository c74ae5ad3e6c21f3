package input

import (
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestEditing(t *testing.T) {
	tests := []struct {
		name     string
		value    string // set before the messages, cursor at its end
		msgs     []tea.Msg
		want     string
		row, col int
	}{
		{"type", "", typed("hello"), "hello", 0, 5},
		{"shift letter", "", []tea.Msg{tea.KeyPressMsg{Code: 'a', ShiftedCode: 'A', Text: "A", Mod: tea.ModShift}}, "A", 0, 1},
		{"space", "", typed("a b"), "a b", 0, 3},
		{"insert in middle", "ac", seq(keys("left"), typed("b")), "abc", 0, 2},
		{"backspace", "abc", keys("backspace"), "ab", 0, 2},
		{"ctrl+h backspace", "abc", keys("ctrl+h"), "ab", 0, 2},
		{"backspace at start does nothing", "abc", keys("home", "backspace"), "abc", 0, 0},
		{"backspace joins lines", "ab\ncd", keys("home", "backspace"), "abcd", 0, 2},
		{"delete", "abc", keys("home", "delete"), "bc", 0, 0},
		{"delete at end does nothing", "abc", keys("delete"), "abc", 0, 3},
		{"delete joins lines", "ab\ncd", keys("up", "delete"), "abcd", 0, 2},
		{"left right", "abc", keys("left", "left", "right"), "abc", 0, 2},
		{"left wraps to previous line", "ab\ncd", keys("home", "left"), "ab\ncd", 0, 2},
		{"right wraps to next line", "ab\ncd", keys("up", "right"), "ab\ncd", 1, 0},
		{"left at buffer start stays", "ab", keys("home", "left"), "ab", 0, 0},
		{"home end", "abc", keys("home", "right", "end"), "abc", 0, 3},
		{"ctrl+a ctrl+e", "abc\ndef", keys("ctrl+a"), "abc\ndef", 1, 0},
		{"ctrl+e", "abc\ndef", keys("up", "ctrl+a", "ctrl+e"), "abc\ndef", 0, 3},
		{"ctrl+home ctrl+end", "ab\ncd\nef", keys("ctrl+home"), "ab\ncd\nef", 0, 0},
		{"ctrl+end", "ab\ncd\nef", keys("ctrl+home", "ctrl+end"), "ab\ncd\nef", 2, 2},
		{"shift+enter newline", "ab", keys("left", "shift+enter"), "a\nb", 1, 0},
		{"alt+enter newline", "ab", keys("alt+enter"), "ab\n", 1, 0},
		{"ctrl+j newline", "ab", keys("ctrl+j"), "ab\n", 1, 0},
		{"backslash enter newline", `foo\`, keys("enter"), "foo\n", 1, 0},
		{"backslash before cursor mid-line", `a\b`, keys("left", "enter"), "a\nb", 1, 0},
		{"ctrl+u", "one two", keys("left", "left", "ctrl+u"), "wo", 0, 0},
		{"ctrl+u at line start joins", "ab\ncd", keys("home", "ctrl+u"), "abcd", 0, 2},
		{"ctrl+k", "one two", keys("home", "right", "ctrl+k"), "o", 0, 1},
		{"ctrl+k at line end joins", "ab\ncd", keys("up", "ctrl+e", "ctrl+k"), "abcd", 0, 2},
		{"ctrl+w", "foo bar baz", keys("ctrl+w"), "foo bar ", 0, 8},
		{"ctrl+w skips trailing spaces", "foo bar  ", keys("ctrl+w"), "foo ", 0, 4},
		{"ctrl+w stops at punctuation", "path/to/file", keys("ctrl+w"), "path/to/", 0, 8},
		{"alt+backspace", "foo bar", keys("alt+backspace"), "foo ", 0, 4},
		{"ctrl+w at line start joins", "ab\ncd", keys("home", "ctrl+w"), "abcd", 0, 2},
		{"alt+d", "foo bar", keys("home", "alt+d"), " bar", 0, 0},
		{"alt+left", "foo bar baz", keys("alt+left", "alt+left"), "foo bar baz", 0, 4},
		{"ctrl+left", "foo bar", keys("ctrl+left"), "foo bar", 0, 4},
		{"alt+b", "foo bar", keys("alt+b"), "foo bar", 0, 4},
		{"alt+right", "foo bar baz", keys("home", "alt+right"), "foo bar baz", 0, 3},
		{"ctrl+right twice", "foo bar baz", keys("home", "ctrl+right", "ctrl+right"), "foo bar baz", 0, 7},
		{"alt+f", "foo bar", keys("home", "alt+f"), "foo bar", 0, 3},
		{"word left crosses lines", "ab\ncd", keys("home", "alt+left"), "ab\ncd", 0, 2},
		{"up down keep column", "abcdef\nab\nabcdef", keys("up", "up"), "abcdef\nab\nabcdef", 0, 6},
		{"down keeps column", "abcdef\nab\nabcdef", keys("ctrl+home", "end", "down", "down"), "abcdef\nab\nabcdef", 2, 6},
		{"up on first row goes to start", "abc", keys("up"), "abc", 0, 0},
		{"down on last row goes to end", "abc", keys("home", "down"), "abc", 0, 3},
		{"wide chars", "", typed("日本語"), "日本語", 0, 3},
		{"wide char backspace", "日本語", keys("left", "backspace"), "日語", 0, 1},
		{"up over wide chars", "日本語\nabcd", keys("up"), "日本語\nabcd", 0, 2},
		{"emoji cluster one step", "a👨‍👩‍👧b", keys("left", "left"), "a👨‍👩‍👧b", 0, 1},
		{"emoji cluster backspace", "a👨‍👩‍👧b", keys("left", "backspace"), "ab", 0, 1},
		{"skin tone delete", "👍🏽x", keys("home", "delete"), "x", 0, 0},
		{"flag", "🇯🇵🇫🇷", keys("left", "backspace"), "🇫🇷", 0, 0},
		{"combining mark joins the letter", "", seq(typed("e"), []tea.Msg{tea.KeyPressMsg{Code: 0x301, Text: "\u0301"}}), "e\u0301", 0, 1},
		{"letter typed before a combining mark", "\u0301", seq(keys("home"), typed("e")), "e\u0301", 0, 1},
		{"combining cluster left", "ae\u0301", keys("left", "left"), "ae\u0301", 0, 0},
		{"paste crlf and tabs", "", paste("one\r\ntwo\tx\rthree"), "one\ntwo    x\nthree", 2, 5},
		{"paste in middle", "ac", seq(keys("left"), paste("b\nb")), "ab\nbc", 1, 1},
		{"paste strips escapes", "", paste("\x1b[31mred\x1b[0m\x07"), "red", 0, 3},
		{"paste keeps trailing newline", "", paste("a\n"), "a\n", 1, 0},
		{"ignored keys", "ab", keys("esc", "tab", "shift+tab", "ctrl+c", "ctrl+g", "ctrl+d", "pgup", "f1", "alt+x"), "ab", 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New()
			m.SetValue(tt.value)
			m, out := feed(t, m, tt.msgs)
			if len(out) != 0 {
				t.Errorf("unexpected messages %v", out)
			}
			if got := m.Value(); got != tt.want {
				t.Errorf("value %q, want %q", got, tt.want)
			}
			if r, c := m.Cursor(); r != tt.row || c != tt.col {
				t.Errorf("cursor (%d, %d), want (%d, %d)", r, c, tt.row, tt.col)
			}
			checkInvariants(t, m)
		})
	}
}

func TestSubmit(t *testing.T) {
	tests := []struct {
		name    string
		msgs    []tea.Msg
		want    []string // Submitted texts in order
		value   string   // left in the buffer
		history []string
	}{
		{"submit", seq(typed("hello"), keys("enter")), []string{"hello"}, "", []string{"hello"}},
		{"empty does not submit", keys("enter"), nil, "", nil},
		{"blank does not submit", seq(typed("  "), keys("enter")), nil, "  ", nil},
		{"multi-line", seq(typed("a"), keys("shift+enter"), typed("b"), keys("enter")), []string{"a\nb"}, "", []string{"a\nb"}},
		{"backslash continues", seq(typed(`a\`), keys("enter"), typed("b"), keys("enter")), []string{"a\nb"}, "", []string{"a\nb"}},
		{"kept as typed", seq(typed(" x "), keys("enter")), []string{" x "}, "", []string{" x "}},
		{"duplicates collapse", seq(typed("a"), keys("enter"), typed("a"), keys("enter"), typed("b"), keys("enter"), typed("a"), keys("enter")),
			[]string{"a", "a", "b", "a"}, "", []string{"a", "b", "a"}},
		{"resubmit recalled entry", seq(typed("a"), keys("enter"), typed("b"), keys("enter"), keys("up", "up", "enter")),
			[]string{"a", "b", "a"}, "", []string{"a", "b", "a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, out := feed(t, New(), tt.msgs)
			var got []string
			for _, msg := range out {
				s, ok := msg.(Submitted)
				if !ok {
					t.Fatalf("unexpected message %T", msg)
				}
				got = append(got, s.Text)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("submitted %q, want %q", got, tt.want)
			}
			if m.Value() != tt.value {
				t.Errorf("value %q, want %q", m.Value(), tt.value)
			}
			if h := m.History(); !slices.Equal(h, tt.history) {
				t.Errorf("history %q, want %q", h, tt.history)
			}
		})
	}
}

func TestConsumes(t *testing.T) {
	consumed := []string{
		"a", "enter", "shift+enter", "alt+enter", "ctrl+j", "backspace", "ctrl+h", "delete",
		"alt+backspace", "ctrl+backspace", "alt+delete", "alt+d", "ctrl+w", "ctrl+u", "ctrl+k",
		"left", "right", "alt+left", "alt+right", "ctrl+left", "ctrl+right", "alt+b", "alt+f",
		"up", "down", "home", "end", "ctrl+home", "ctrl+end", "ctrl+a", "ctrl+e",
	}
	ignored := []string{"esc", "tab", "shift+tab", "ctrl+c", "ctrl+g", "ctrl+d", "ctrl+enter", "shift+up", "pgup", "f1", "alt+x", "ctrl+l"}
	m := New()
	m.SetValue("some text")
	for _, k := range consumed {
		if !m.Consumes(key(k)) {
			t.Errorf("%s not consumed", k)
		}
	}
	for _, k := range ignored {
		if m.Consumes(key(k)) {
			t.Errorf("%s consumed", k)
		}
		after, cmd := m.Update(key(k))
		if cmd != nil || after.Value() != m.Value() {
			t.Errorf("%s changed the editor", k)
		}
	}
	if !m.Consumes(tea.KeyPressMsg{Code: 'é', Text: "é", Mod: tea.ModCtrl | tea.ModAlt}) {
		t.Error("AltGr text not consumed")
	}
	m.Blur()
	if m.Focused() || m.Consumes(key("a")) {
		t.Error("blurred editor consumes keys")
	}
	m, _ = feed(t, m, seq(typed("x"), paste("y")))
	if m.Value() != "some text" {
		t.Errorf("blurred editor took input: %q", m.Value())
	}
	m.Focus()
	if !m.Focused() || !m.Consumes(key("a")) {
		t.Error("focused editor does not consume keys")
	}
}

func TestZeroModel(t *testing.T) {
	var m Model
	m.Focus()
	m, _ = feed(t, m, typed("ok"))
	if m.Value() != "ok" {
		t.Errorf("value %q", m.Value())
	}
	var z Model
	if z.View() == "" || z.Height() != 1 || z.Value() != "" {
		t.Error("zero model does not render as empty")
	}
}
