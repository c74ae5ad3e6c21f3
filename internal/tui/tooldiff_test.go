package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// greeter is a file the model edits in the tests of shown changes.
const greeter = `package main

import "fmt"

func main() {
	fmt.Println("hello")
}
`

func TestEditsShowTheirDiffFoldedAndExpanded(t *testing.T) {
	f := newFixtureWith(t, false, func(base string) {
		os.WriteFile(filepath.Join(base, "project", "main.go"), []byte(greeter), 0o644)
	},
		fakemodel.Reply{When: fakemodel.Match{LastUser: "shout"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Read", Input: map[string]any{"file_path": "main.go"}}}},
		fakemodel.Reply{When: fakemodel.Match{ToolResult: "package main"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Edit", Input: map[string]any{"file_path": "main.go", "old_string": `fmt.Println("hello")`, "new_string": `fmt.Println("HELLO")`}},
			{Name: "Write", Input: map[string]any{"file_path": "notes.txt", "content": "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n"}}}},
		fakemodel.Reply{When: fakemodel.Match{ToolResult: "notes.txt"}, Text: "Done."},
	)
	if err := f.a.SetMode(event.ModeAcceptEdits, "tui"); err != nil {
		t.Fatal(err)
	}
	f.m.Update(tea.WindowSizeMsg{Width: 80, Height: 40})
	f.typeText("shout")
	f.keys("enter")
	s := f.screen()
	if !strings.Contains(s, `-   fmt.Println("hello")`) || !strings.Contains(s, `+   fmt.Println("HELLO")`) {
		t.Fatalf("the edit's change is not on screen:\n%s", s)
	}
	golden(t, "edit-diff-folded", s)
	f.keys("ctrl+o")
	s = f.screen()
	if !strings.Contains(s, "+ten") || strings.Contains(s, "more lines (ctrl+o") {
		t.Fatalf("ctrl+o does not show the whole change:\n%s", s)
	}
	golden(t, "edit-diff-expanded", s)
	f.keys("ctrl+o")

	f.typeText("/diff")
	f.keys("enter")
	s = f.screen()
	if !strings.Contains(s, "Changes this session (2 files)") || !strings.Contains(s, "main.go +1 −1") || !strings.Contains(s, "notes.txt +10 −0") {
		t.Fatalf("/diff:\n%s", s)
	}
	golden(t, "diff-command", s)
}

func TestDiffWithNoChangesSaysSo(t *testing.T) {
	f := newFixture(t, false)
	f.typeText("/diff")
	f.keys("enter")
	if !strings.Contains(f.screen(), "ponder has changed no file in this session.") {
		t.Fatalf("screen:\n%s", f.screen())
	}
}
