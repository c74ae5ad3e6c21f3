package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// A transcript deleted while its session runs is written again at the
// session's next entry, whole, with a warning; the session can then be
// resumed as if nothing had happened.
func TestDeletedTranscriptIsRestored(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "one", When: fakemodel.Match{LastUser: "first question"}, Text: "first answer"},
			fakemodel.Reply{Name: "two", When: fakemodel.Match{LastUser: "second question"}, Text: "second answer"},
			fakemodel.Reply{Name: "three", When: fakemodel.Match{LastUser: "third question"}, Text: "third answer"})
		s := w.start()
		s.say("first question")
		id, _ := s.result()["session_id"].(string)
		paths, _ := filepath.Glob(filepath.Join(w.cfg, "projects", "*", id+".jsonl"))
		if id == "" || len(paths) != 1 {
			t.Fatalf("session %q: transcripts %v", id, paths)
		}
		path := paths[0]
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		s.say("second question")
		s.result()
		if code := s.close(); code != 0 {
			t.Fatalf("exit %d; stderr:\n%s", code, s.stderr.String())
		}
		warned := false
		for _, m := range s.seen {
			if line, _ := json.Marshal(m); m["type"] == "event" && strings.Contains(string(line), "was deleted while the session ran") {
				warned = true
			}
		}
		if !warned && !strings.Contains(s.stderr.String(), "was deleted while the session ran") {
			t.Errorf("no warning; stderr:\n%s\nlines: %v", s.stderr.String(), s.seen)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("the transcript was not written again: %v", err)
		}
		for _, want := range []string{"first question", "first answer", "second question", "second answer"} {
			if !strings.Contains(string(data), want) {
				t.Errorf("restored transcript lacks %q", want)
			}
		}
		o := w.mustRun(0, "", "-p", "--resume", id, "third question")
		if strings.TrimSpace(o.stdout) != "third answer" {
			t.Fatalf("stdout %q; stderr %q", o.stdout, o.stderr)
		}
		reqs := w.srv.Requests()
		last := reqs[len(reqs)-1]
		if n := len(last.Messages); n != 5 {
			t.Errorf("the resumed request carries %d messages, want 5", n)
		}
		w.allUsed()
	})
}
