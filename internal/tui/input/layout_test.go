package input

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestLayout(t *testing.T) {
	tests := []struct {
		text string
		tw   int
		want []int
	}{
		{"", 5, []int{0}},
		{"abc", 0, []int{0}},
		{"abcde", 5, []int{0}},
		{"abcdef", 5, []int{0, 5}},
		{"hello world", 5, []int{0, 6}},
		{"hello ", 5, []int{0, 6}},
		{"ab cd ef", 5, []int{0, 6}},
		{"aaaaa     bbb", 5, []int{0, 6, 10}},
		{"日本語", 5, []int{0, 6}},
		{"日本語", 1, []int{0, 3, 6}}, // wider than a row: one cluster per row
		{"x y", 1, []int{0, 2}},
	}
	for _, tt := range tests {
		if got := layout(nil, tt.text, tt.tw, 0, nil); !slices.Equal(got, tt.want) {
			t.Errorf("layout(%q, %d) = %v, want %v", tt.text, tt.tw, got, tt.want)
		}
	}
}

// TestRandomEdits drives the editor with a fixed pseudo-random mix of keys
// and checks after each that incremental re-wrapping matches a fresh
// layout, the cursor is on a cluster boundary and shown, and no row
// overflows.
func TestRandomEdits(t *testing.T) {
	pieces := []string{"a", "b", " ", "  ", "word", "日", "本語", "👍🏽", "👨‍👩‍👧", "e\u0301", "\u0301", "🇯🇵", "x\ny", "\\", "❤\ufe0f", "\ufe0f", "\u200d", "abcdefghijklmnop"}
	names := []string{
		"left", "right", "up", "down", "home", "end", "backspace", "delete", "ctrl+w", "alt+d",
		"ctrl+u", "ctrl+k", "alt+left", "alt+right", "shift+enter", "enter", "ctrl+home", "ctrl+end",
	}
	for _, w := range []int{0, 5, 6, 9, 13, 24} {
		r := rand.New(rand.NewPCG(uint64(w), 7))
		m := New()
		m.SetWidth(w)
		m.SetMaxHeight(w % 4)
		for i := range 3000 {
			var msg tea.Msg
			switch n := r.IntN(10); {
			case n < 5:
				msg = typed(pieces[r.IntN(len(pieces))])[0]
			case n < 6:
				msg = tea.PasteMsg{Content: strings.Repeat(pieces[r.IntN(len(pieces))], 1+r.IntN(12))}
			default:
				msg = key(names[r.IntN(len(names))])
			}
			m, _ = m.Update(msg)
			checkInvariants(t, m)
			if _, y, _ := m.CursorPosition(); y < 0 || y >= m.Height() || strings.Count(m.View(), "\n")+1 != m.Height() {
				t.Fatalf("cursor row %d, view of %d rows, height %d", y, strings.Count(m.View(), "\n")+1, m.Height())
			}
			if i%500 == 499 {
				m.SetWidth(w + i%7)
				checkInvariants(t, m)
				m.SetWidth(w)
			}
		}
	}
}

// TestClusterFastPath checks the shortcuts of cluster against the Unicode
// segmenter for every character they cover and a range of neighbours.
func TestClusterFastPath(t *testing.T) {
	next := []string{"", "a", " ", "~", "日", "か", "カ", "\u3099", "\u0301", "\ufe0f", "\u200d", "👍", "é", "\x01"}
	check := func(s string) {
		c, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		if n, cw := cluster(s); n != len(c) || cw != w {
			t.Fatalf("cluster(%q) = %d, %d; segmenter says %q, %d", s, n, cw, c, w)
		}
	}
	for r := rune(0x20); r < 0x7f; r++ {
		for _, x := range next {
			check(string(r) + x)
		}
	}
	for r := rune(0x3000); r <= 0x9fff; r++ {
		if !wideSimple(r) && r > 0x3100 {
			continue
		}
		for _, x := range next {
			check(string(r) + x)
		}
	}
}
