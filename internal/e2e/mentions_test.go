package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// @path attaches a file's content and a directory's listing to the
// prompt; a file the Read rules deny is not attached, and the user is
// told.
func TestMentionsAttachFilesAndDirectories(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, fakemodel.Reply{Name: "seen", When: fakemodel.Match{LastUser: "plover"}, Text: "The word is plover."})
		w.write("notes.md", "the secret word is plover\n")
		w.write("src/alpha.go", "package src\n")
		w.write("src/beta.go", "package src\n")
		w.write(".env", "API_TOKEN=hunter2\n")
		writeConfigFile(t, filepath.Join(w.cfg, "settings.json"), `{"permissions":{"deny":["Read(.env)"]}}`)
		o := w.mustRun(0, "", "-p", "summarise @notes.md and @src/, also @.env. Mail me@example.com")
		if !strings.Contains(o.stdout, "The word is plover.") {
			t.Fatalf("stdout %q", o.stdout)
		}
		msg := w.srv.Requests()[0].LastUser()
		text := msg.Text
		if !strings.Contains(text, "summarise @notes.md") {
			t.Fatalf("the prompt itself is not sent as typed: %q", text)
		}
		if !strings.Contains(text, "alpha.go") || !strings.Contains(text, "beta.go") {
			t.Fatalf("the directory listing is not attached: %q", text)
		}
		if strings.Contains(text, "hunter2") {
			t.Fatal("a file the deny rules keep from Read was attached")
		}
		if !strings.Contains(o.stderr, "@.env is not attached") {
			t.Fatalf("the user is not told about .env: %s", o.stderr)
		}
	})
}

// A directory listing leaves out what the rules hide, and a link to a
// denied file is judged by what it points to.
func TestMentionsHonourRulesThroughLinksAndListings(t *testing.T) {
	w := newWorld(t, "anthropic", fakemodel.Reply{Name: "seen", When: fakemodel.Match{LastUser: "look"}, Text: "ok"})
	w.write("conf/.env", "API_TOKEN=hunter2\n")
	w.write("conf/app.yaml", "port: 1\n")
	writeConfigFile(t, filepath.Join(w.cfg, "settings.json"), `{"permissions":{"deny":["Read(.env)"]}}`)
	if err := os.Symlink(filepath.Join(w.dir, "conf", ".env"), filepath.Join(w.dir, "innocent.txt")); err != nil {
		t.Fatal(err)
	}
	o := w.mustRun(0, "", "-p", "look at @conf and @innocent.txt")
	text := w.srv.Requests()[0].LastUser().Text
	if strings.Contains(text, "hunter2") || strings.Contains(text, ".env") || !strings.Contains(text, "app.yaml") {
		t.Fatalf("attached: %q", text)
	}
	if !strings.Contains(o.stderr, "@innocent.txt is not attached") {
		t.Fatalf("stderr: %s", o.stderr)
	}
}
