package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

func TestEscEscRewindsFilesAndConversation(t *testing.T) {
	f := newFixture(t, false,
		fakemodel.Reply{When: fakemodel.Match{LastUser: "write hello"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Write", Input: map[string]any{"file_path": "hello.txt", "content": "hi\n"}}}},
		fakemodel.Reply{When: fakemodel.Match{ToolResult: "hello.txt"}, Text: "Written."},
		fakemodel.Reply{When: fakemodel.Match{LastUser: "and another"}, Text: "Nothing to do."},
	)
	if err := f.a.SetMode(event.ModeAcceptEdits, "tui"); err != nil {
		t.Fatal(err)
	}
	f.typeText("write hello")
	f.keys("enter")
	f.typeText("and another")
	f.keys("enter")
	hello := filepath.Join(f.a.Dir(), "hello.txt")
	if _, err := os.Stat(hello); err != nil {
		t.Fatalf("the turn did not write: %v", err)
	}

	f.keys("esc", "esc")
	golden(t, "rewind-list", f.screen())
	f.keys("up", "enter")
	golden(t, "rewind-options", f.screen())
	f.keys("enter")

	if _, err := os.Stat(hello); err == nil {
		t.Fatal("the file written in turn 1 is still there")
	}
	if n := len(f.a.History()); n != 0 {
		t.Fatalf("the conversation has %d messages after rewinding to before turn 1", n)
	}
	if f.m.in.Value() != "write hello" {
		t.Fatalf("the prompt is not back in the input box: %q", f.m.in.Value())
	}
	if s := f.screen(); !strings.Contains(s, "Rewound the files and conversation to before turn 1") || strings.Contains(s, "Nothing to do.") {
		t.Fatalf("screen after the rewind:\n%s", s)
	}
}

func TestRewindWithNoTurnsSaysSo(t *testing.T) {
	f := newFixture(t, false)
	f.typeText("/rewind")
	f.keys("enter")
	if !strings.Contains(f.screen(), "Nothing to rewind yet") {
		t.Fatalf("screen:\n%s", f.screen())
	}
}

// Rewinding a turn sent by /plan <task> puts "/plan <task>" back in the
// input box and the mode back to the one before the command, so sending
// it again plans again.
func TestRewindOfAPlanTurnPutsTheCommandAndModeBack(t *testing.T) {
	f := newFixture(t, false,
		fakemodel.Reply{When: fakemodel.Match{LastUser: "add a greeting"}, Text: "Exploring first."},
	)
	f.typeText("/plan add a greeting")
	f.keys("enter")
	if f.a.Mode() != event.ModePlan {
		t.Fatalf("mode %s after /plan add a greeting", f.a.Mode())
	}
	// Later the mode changes (an approval, Shift+Tab).
	if err := f.a.SetMode(event.ModeAcceptEdits, "tui"); err != nil {
		t.Fatal(err)
	}
	f.keys("esc", "esc", "enter", "enter") // the only turn; files and conversation
	if got := f.m.in.Value(); got != "/plan add a greeting" {
		t.Fatalf("input after the rewind: %q", got)
	}
	if f.a.Mode() != event.ModeDefault {
		t.Fatalf("mode after the rewind: %s", f.a.Mode())
	}
	if s := strings.Join(strings.Fields(f.screen()), " "); !strings.Contains(s, "Mode: default again, as when the turn was sent.") {
		t.Fatalf("screen:\n%s", f.screen())
	}
}
