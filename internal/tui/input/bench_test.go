package input

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// benchType types 1,000 clusters into the middle line of a 200-line
// buffer wrapped at 100 columns, and reports the cost per keystroke. With
// view set, View is rendered after each key, as bubbletea does.
func benchType(b *testing.B, text string, view bool) {
	lines := make([]string, 200)
	for i := range lines {
		lines[i] = strings.Repeat("lorem ipsum dolor sit amet ", 3)
	}
	buf := strings.Join(lines, "\n")
	msgs := typed(strings.Repeat(text, 1000/len(typed(text))+1))[:1000]
	start := make([]tea.Msg, 0, 100)
	for range 100 {
		start = append(start, key("up"))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		m := New()
		m.SetWidth(100)
		m.SetValue(buf)
		m, _ = feed(b, m, start)
		b.StartTimer()
		for _, msg := range msgs {
			m, _ = m.Update(msg)
			if view {
				_ = m.View()
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/key")
}

func BenchmarkTypeASCII(b *testing.B)        { benchType(b, "hello world ", false) }
func BenchmarkTypeASCIIAndView(b *testing.B) { benchType(b, "hello world ", true) }
func BenchmarkTypeCJK(b *testing.B)          { benchType(b, "日本語のテキスト", false) }
func BenchmarkTypeEmojiAndView(b *testing.B) { benchType(b, "👍🏽 ", true) }

// BenchmarkTypeMidLongLine types 1,000 characters into the middle of one
// 20,000-character line, where only the rows near the cursor are re-wrapped.
func BenchmarkTypeMidLongLine(b *testing.B) {
	buf := strings.Repeat("lorem ipsum dolor sit amet ", 20000/27)
	msgs := typed(strings.Repeat("hello world ", 84))[:1000]
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		m := New()
		m.SetWidth(100)
		m.SetValue(buf)
		for range 100 {
			m, _ = m.Update(key("up"))
		}
		b.StartTimer()
		for _, msg := range msgs {
			m, _ = m.Update(msg)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/key")
}
