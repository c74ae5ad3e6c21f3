package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// Two directories whose names differ only in punctuation (a.b and a/b)
// share a transcript folder name; neither continues nor resumes the
// other's session, so no conversation or mode crosses projects.
func TestSessionsStayWithTheirDirectory(t *testing.T) {
	w := newWorld(t, "anthropic",
		fakemodel.Reply{Name: "one", When: fakemodel.Match{LastUser: "remember 42"}, Text: "noted"},
		fakemodel.Reply{Name: "other", Times: -1, Text: "fresh"},
	)
	base := filepath.Dir(w.dir)
	first, second := filepath.Join(base, "a.b"), filepath.Join(base, "a", "b")
	for _, d := range []string{first, second} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	id := "6f1b9a54-3a4c-4d8e-9a55-0a2f3c4d5e6f"
	w.dir = first
	w.mustRun(0, "", "-p", "remember 42", "--session-id", id, "--permission-mode", "acceptEdits")
	w.dir = second
	o := w.run("", "-p", "what number?", "--continue", "--output-format", "json")
	if o.code == 0 || !strings.Contains(o.stderr, "no earlier session") {
		t.Fatalf("--continue in another directory: exit %d\n%s%s", o.code, o.stdout, o.stderr)
	}
	if n := len(w.srv.Requests()); n != 1 {
		t.Fatalf("%d requests; another directory's conversation went on", n)
	}
	if o := w.run("", "-p", "again", "--resume", id); o.code == 0 {
		t.Fatalf("--resume took another directory's session:\n%s", o.stdout)
	}
	w.dir = first
	o = w.mustRun(0, "", "-p", "what number?", "--continue", "--output-format", "json")
	if res := lastResult(t, o.stdout); res["session_id"] != id {
		t.Fatalf("the session's own directory lost it: %v", res)
	}
}
