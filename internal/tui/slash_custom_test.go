package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCustomCommandsInTheMenuHelpAndTurns(t *testing.T) {
	f := newFixtureWith(t, false, func(base string) {
		writeFile(t, filepath.Join(base, "config", "commands", "review.md"),
			"---\ndescription: Review a file for bugs\nargument-hint: FILE\n---\nReview $ARGUMENTS and list the bugs.\n")
		writeFile(t, filepath.Join(base, "project", ".claude", "commands", "release-notes.md"), "Write release notes.\n")
		writeFile(t, filepath.Join(base, "project", ".ponder", "skills", "pdf", "SKILL.md"), "---\ndescription: Fill in PDF forms\n---\nUse the script.\n")
	}, fakemodel.Reply{When: fakemodel.Match{LastUser: "Review main.go and list the bugs."}, Text: "No bugs."})
	f.typeText("/re")
	golden(t, "slash-menu-custom", f.screen())
	f.keys("down", "down", "down", "tab")
	if f.m.in.Value() != "/review " {
		t.Fatalf("completion gave %q", f.m.in.Value())
	}
	f.typeText("main.go")
	f.keys("enter")
	if s := f.screen(); !strings.Contains(s, "No bugs.") {
		t.Fatalf("the command's prompt did not reach the model:\n%s", s)
	}
	f.typeText("/help")
	f.keys("enter")
	if s := f.screen(); !strings.Contains(s, "/release-notes") || !strings.Contains(s, "Review a file for bugs (user)") || !strings.Contains(s, "Fill in PDF forms (project)") {
		t.Fatalf("/help lacks the custom commands:\n%s", s)
	}
}

func TestAtCompletesFilesFuzzilyAndSkipsIgnoredAndDenied(t *testing.T) {
	f := newFixtureWith(t, false, func(base string) {
		proj := filepath.Join(base, "project")
		writeFile(t, filepath.Join(proj, ".gitignore"), "build/\n")
		writeFile(t, filepath.Join(proj, "internal", "server", "handler.go"), "package server\n")
		writeFile(t, filepath.Join(proj, "internal", "server", "handler_test.go"), "package server\n")
		writeFile(t, filepath.Join(proj, "docs", "handbook.md"), "# Handbook\n")
		writeFile(t, filepath.Join(proj, "build", "handler.go"), "generated\n")
		writeFile(t, filepath.Join(proj, "handler.env"), "SECRET=1\n")
		os.MkdirAll(filepath.Join(proj, ".git"), 0o755)
		writeFile(t, filepath.Join(base, "config", "settings.json"), `{"permissions":{"deny":["Read(*.env)"]}}`)
	})
	f.typeText("look at ")
	f.keys("@", "h", "a", "n", "d")
	golden(t, "mention-menu", f.screen())
	s := f.screen()
	if strings.Contains(s, "build/") || strings.Contains(s, "handler.env") {
		t.Fatalf("ignored or denied files offered:\n%s", s)
	}
	f.keys("l")
	f.keys("enter")
	if v := f.m.in.Value(); v != "look at @internal/server/handler.go " {
		t.Fatalf("completion gave %q", v)
	}
}

// An attached file goes to the model, not into the user's line on screen,
// also when the conversation is drawn again from history.
func TestAttachmentsAreNotShownAsTypedText(t *testing.T) {
	f := newFixtureWith(t, false, func(base string) {
		writeFile(t, filepath.Join(base, "project", "a.txt"), "the content of a\n")
	}, fakemodel.Reply{When: fakemodel.Match{LastUser: "the content of a"}, Text: "Seen."})
	f.typeText("look at @a.txt")
	f.keys("enter")
	f.m.conv = newConversation(f.m.th)
	f.m.loadHistory()
	s := f.screen()
	if !strings.Contains(s, "look at @a.txt") || strings.Contains(s, "the content of a") || !strings.Contains(s, "Seen.") {
		t.Fatalf("screen:\n%s", s)
	}
}
