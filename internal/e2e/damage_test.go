package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// readingSession runs a session in which the model reads a file twice,
// then answers; it returns the transcript's lines.
func readingSession(t *testing.T, w *world, id string) []string {
	t.Helper()
	w.write("notes.txt", "some notes\n")
	w.srv.Add(
		fakemodel.Reply{Name: "read1", When: fakemodel.Match{LastUser: "read the notes"}, ToolCalls: tools(call{Name: "Read", Input: map[string]any{"file_path": "notes.txt"}})},
		fakemodel.Reply{Name: "read2", When: fakemodel.Match{ToolResult: "some notes"}, Times: 1, ToolCalls: tools(call{Name: "Grep", Input: map[string]any{"pattern": "notes"}})},
		fakemodel.Reply{Name: "answer", When: fakemodel.Match{ToolResult: "Found"}, Text: "They are notes."},
	)
	w.mustRun(0, "", "-p", "read the notes", "--session-id", id)
	data, err := os.ReadFile(w.transcript(id))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// damageReports counts the lines of stderr that report damage.
func damageReports(stderr string) int {
	n := 0
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, ".jsonl:") {
			n++
		}
	}
	return n
}

// A transcript that lost the line with a tool call's results, and whose
// last line was cut off, resumes: the model gets a valid conversation
// (the lost result stands in for the missing one), the damage is reported
// once, and the next resume neither reports it again nor fails.
func TestDamagedTranscriptResumes(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		id := "1f0a9b82-7c6d-4e5f-8a41-3c2d1e0f9a8b"
		lines := readingSession(t, w, id)
		damaged := false
		for i, l := range lines {
			if strings.Contains(l, `"tool_result"`) && strings.Contains(l, "some notes") {
				lines[i] = "\x00\x01 garbage from a bad disk"
				damaged = true
			}
		}
		if !damaged {
			t.Fatalf("no result line to damage in:\n%s", strings.Join(lines, "\n"))
		}
		content := strings.Join(lines, "\n") + "\n" + `{"type":"message","message":{"role":"user","con`
		if err := os.WriteFile(w.transcript(id), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}

		w.srv.Add(fakemodel.Reply{Name: "again", When: fakemodel.Match{LastUser: "what now"}, Text: "carrying on", Times: 2})
		o := w.mustRun(0, "", "-p", "what now", "--resume", id)
		if strings.TrimSpace(o.stdout) != "carrying on" {
			t.Fatalf("stdout %q stderr %q", o.stdout, o.stderr)
		}
		for _, want := range []string{"not a valid transcript entry", "cut off", "is missing"} {
			if !strings.Contains(o.stderr, want) {
				t.Errorf("the first resume does not report %q: %q", want, o.stderr)
			}
		}
		reqs := w.srv.Requests()
		last := reqs[len(reqs)-1]
		if !last.ContainsText("was lost") {
			t.Error("the model is not told that a result was lost")
		}

		o = w.mustRun(0, "", "-p", "what now", "--resume", id)
		if n := damageReports(o.stderr); n != 0 {
			t.Errorf("the second resume reports damage again: %q", o.stderr)
		}
		checkRequests(t, w.srv.Requests())
		data, _ := os.ReadFile(w.transcript(id))
		if strings.Contains(string(data), `"role":"user","con`+"\n") || !strings.HasSuffix(string(data), "\n") {
			t.Error("the cut line is still in the transcript")
		}
	})
}

// A transcript that ends with a tool call whose result was never written
// (the process was killed) resumes with a result saying so, and the
// answer is recorded, so later resumes start from a valid conversation.
func TestUnansweredCallResumes(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		id := "2a1b0c93-8d7e-4f60-9b52-4d3e2f1a0b9c"
		lines := readingSession(t, w, id)
		// Keep everything up to the first call.
		var kept []string
		for _, l := range lines {
			kept = append(kept, l)
			if strings.Contains(l, `"tool_use"`) {
				break
			}
		}
		os.WriteFile(w.transcript(id), []byte(strings.Join(kept, "\n")+"\n"), 0o600)
		w.srv.Add(fakemodel.Reply{Name: "again", When: fakemodel.Match{LastUser: "go on"}, Text: "ok", Times: 2})
		o := w.mustRun(0, "", "-p", "go on", "--resume", id)
		if damageReports(o.stderr) != 0 {
			t.Errorf("a killed process is not damage: %q", o.stderr)
		}
		w.mustRun(0, "", "-p", "go on", "--resume", id)
		checkRequests(t, w.srv.Requests())
		reqs := w.srv.Requests()
		if !reqs[len(reqs)-1].ContainsText("stopped before this call finished") {
			t.Error("the model is not told the call may not have run")
		}
	})
}

// A disk that is full when ponder starts leaves no empty transcript, and
// --continue afterwards picks the last real session. Empty transcripts
// that older versions left are skipped too.
func TestFullDiskAtStartLeavesNoEmptyTranscript(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "first", When: fakemodel.Match{LastUser: "remember the word kumquat"}, Text: "noted"},
			fakemodel.Reply{Name: "later", When: fakemodel.Match{LastUser: "which word"}, Text: "kumquat"},
		)
		w.mustRun(0, "", "-p", "remember the word kumquat")
		store := filepath.Dir(w.transcript("x"))
		before, _ := os.ReadDir(store)

		// ulimit -f 0: every write to a file fails, as on a full disk.
		cmd := []string{"-c", `ulimit -f 0 && exec "$0" "$@"`, ponderBin, "-p", "hello"}
		o := w.runProgram("sh", cmd...)
		if o.code != 1 || !strings.Contains(o.stderr, "creating transcript") {
			t.Fatalf("exit %d, stderr %q", o.code, o.stderr)
		}
		after, _ := os.ReadDir(store)
		if len(after) != len(before) {
			t.Fatalf("the failed start left files: %v (before: %v)", after, before)
		}

		// An empty transcript, newer than the real one, as older versions
		// could leave.
		empty := filepath.Join(store, "3b2c1d04-9e8f-4a71-8c63-5e4f3a2b1c0d.jsonl")
		os.WriteFile(empty, nil, 0o600)
		future := time.Now().Add(time.Hour)
		os.Chtimes(empty, future, future)

		o = w.mustRun(0, "", "-p", "which word", "--continue")
		if strings.TrimSpace(o.stdout) != "kumquat" {
			t.Fatalf("stdout %q stderr %q", o.stdout, o.stderr)
		}
		reqs := w.srv.Requests()
		if !reqs[len(reqs)-1].ContainsText("remember the word kumquat") {
			t.Error("--continue did not continue the real session")
		}
	})
}
