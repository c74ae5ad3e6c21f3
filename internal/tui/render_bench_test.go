package tui

import (
	"encoding/json"
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/ponder-agent/ponder/event"
)

// longConversation fills the scrollback with about lines rendered lines of
// markdown answers and tool calls.
func longConversation(f *fixture, lines int) {
	answer := "Here is what I found:\n\n- `main.go` parses the flags\n- **greeting** builds the text\n\n```go\nfmt.Println(greeting(*name))\n```\n"
	for i := 0; ; i++ {
		f.m.conv.add(&item{kind: itemUser, text: fmt.Sprintf("question %d about the code", i)})
		f.m.handleEvent(event.AssistantMessage{Message: event.Message{Role: "assistant", Content: []event.Block{{Type: "text", Text: answer}}}})
		id := fmt.Sprint(i)
		f.m.handleEvent(event.ToolStarted{ID: id, Name: "Read", Input: json.RawMessage(`{"file_path":"main.go"}`)})
		f.m.handleEvent(event.ToolFinished{ID: id, Name: "Read", Content: "package main", Summary: "Read 20 lines"})
		if len(f.m.conv.lines(f.m.width)) >= lines {
			return
		}
	}
}

// BenchmarkRenderFrame measures drawing one frame over a 2,000-line
// conversation while an answer streams in: the cost of each update the
// user sees while typing.
func BenchmarkRenderFrame(b *testing.B) {
	f := newFixture(b, false)
	f.m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	longConversation(f, 2000)
	b.ReportMetric(float64(len(f.m.conv.lines(f.m.width))), "lines")
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		f.m.handleEvent(event.TextDelta{Text: "streamed words arrive one after another "})
		if i%50 == 0 {
			f.m.handleEvent(event.TextDelta{Text: "\n\n- a list item with `code`\n"})
		}
		_ = f.m.render()
	}
}

// BenchmarkRenderKeystroke measures a frame after a key press with the
// same conversation on screen and nothing streaming.
func BenchmarkRenderKeystroke(b *testing.B) {
	f := newFixture(b, false)
	f.m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	longConversation(f, 2000)
	b.ResetTimer()
	for b.Loop() {
		f.typeText("x")
		_ = f.m.render()
	}
}
