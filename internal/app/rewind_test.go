package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// After a clear, the earlier turns can give back their files but not
// their conversation; what and which turn are checked.
func TestRewindAfterClearIsFilesOnly(t *testing.T) {
	a, _ := newTestApp(t, Options{Mode: event.ModeAcceptEdits},
		fakemodel.Reply{When: fakemodel.Match{LastUser: "write it"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Write", Input: map[string]any{"file_path": "x.txt", "content": "x"}}}},
		fakemodel.Reply{When: fakemodel.Match{ToolResult: "x.txt"}, Text: "ok"},
		fakemodel.Reply{When: fakemodel.Match{LastUser: "later"}, Text: "ok"},
	)
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := a.Send(ctx, "write it"); err != nil {
		t.Fatal(err)
	}
	a.Clear()
	if _, err := a.Send(ctx, "later"); err != nil {
		t.Fatal(err)
	}
	turns := a.Turns()
	if len(turns) != 2 || turns[0].Conversation || !turns[1].Conversation || len(turns[0].Files) != 1 {
		t.Fatalf("turns %+v", turns)
	}
	if _, err := a.Rewind(1, RewindBoth); err == nil {
		t.Fatal("a cleared conversation was rewound")
	}
	var ue *UsageError
	if _, err := a.Rewind(7, RewindFiles); !errors.As(err, &ue) {
		t.Fatalf("rewind to a missing turn: %v", err)
	}
	if _, err := a.Rewind(1, "everything"); !errors.As(err, &ue) {
		t.Fatalf("rewind of an unknown what: %v", err)
	}
	res, err := a.Rewind(1, RewindFiles)
	if err != nil || len(res.Removed) != 1 {
		t.Fatalf("files rewind: %+v %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(a.Dir(), "x.txt")); err == nil {
		t.Fatal("the file is still there")
	}
	// A files-only rewind keeps the turns and the conversation.
	if n := len(a.Turns()); n != 2 || len(a.History()) == 0 {
		t.Fatalf("after a files-only rewind: %d turns, %d messages", n, len(a.History()))
	}
}
