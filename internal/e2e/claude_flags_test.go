package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// --settings counts as the user's own settings, in a folder nobody
// trusted: its allow rules widen, its deny rules narrow; given as JSON or
// as a file; a broken one is a usage error.
func TestSettingsFlagWidensAndNarrows(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		os.MkdirAll(filepath.Join(w.dir, ".git"), 0o755)
		w.write("secret.txt", "SECRET-VALUE\n")

		// Without it, nobody can allow the command.
		w.srv.Add(calls("touch it", bashCall("touch widened"))...)
		w.mustRun(0, "", "-p", "touch it")
		if w.exists("widened") {
			t.Fatal("control: the command ran without a rule")
		}
		w.srv.Add(calls("touch it", bashCall("touch widened"))...)
		w.mustRun(0, "", "-p", "touch it", "--settings", `{"permissions":{"allow":["Bash(touch:*)"]}}`)
		if !w.exists("widened") {
			t.Error("an allow rule of --settings did not widen")
		}

		file := filepath.Join(t.TempDir(), "narrow.json")
		os.WriteFile(file, []byte(`{"permissions":{"deny":["Read(secret.txt)"]}}`), 0o644)
		w.srv.Add(calls("read it", fakemodel.ToolCall{Name: "Read", Input: map[string]any{"file_path": "secret.txt"}})...)
		w.mustRun(0, "", "-p", "read it", "--settings", file)
		if r := w.lastResults(1)[0]; !failed(r) || strings.Contains(r.Content, "SECRET-VALUE") {
			t.Errorf("a deny rule of --settings did not narrow: %q", r.Content)
		}

		if o := w.run("", "-p", "hi", "--settings", `{"permissions": [`); o.code != 2 || !strings.Contains(o.stderr, "--settings") {
			t.Errorf("broken --settings: exit %d %q", o.code, o.stderr)
		}
		if o := w.run("", "-p", "hi", "--settings", filepath.Join(w.dir, "missing.json")); o.code != 2 || !strings.Contains(o.stderr, "missing.json") {
			t.Errorf("missing --settings file: exit %d %q", o.code, o.stderr)
		}
	})
}

// --add-dir lets the session edit files in the added directory as it
// edits the project's (accept-edits accepts them), and nothing else: a
// directory beside it still needs a yes nobody can give here.
func TestAddDirGrantsThatDirectoryOnly(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		outside := t.TempDir()
		added := filepath.Join(outside, "shared")
		other := filepath.Join(outside, "other")
		os.MkdirAll(added, 0o755)
		os.MkdirAll(other, 0o755)
		os.WriteFile(filepath.Join(added, "lib.txt"), []byte("old lib\n"), 0o644)
		os.WriteFile(filepath.Join(other, "x.txt"), []byte("old other\n"), 0o644)
		read := func(p string) fakemodel.ToolCall {
			return fakemodel.ToolCall{Name: "Read", Input: map[string]any{"file_path": p}}
		}
		w.srv.Add(fakemodel.Reply{Name: "read", When: fakemodel.Match{LastUser: "update both"},
			ToolCalls: []fakemodel.ToolCall{read(filepath.Join(added, "lib.txt")), read(filepath.Join(other, "x.txt"))}})
		w.srv.Add(fakemodel.Reply{Name: "edit", When: fakemodel.Match{ToolResult: "old lib"}, ToolCalls: []fakemodel.ToolCall{
			editCall(filepath.Join(added, "lib.txt"), "old lib", "new lib"),
			editCall(filepath.Join(other, "x.txt"), "old other", "new other"),
		}})
		w.srv.Add(fakemodel.Reply{Name: "done", When: fakemodel.Match{ToolResult: "lib.txt"}, Text: "done"})
		o := w.mustRun(0, "", "-p", "update both", "--permission-mode", "acceptEdits", "--add-dir", added)
		if got, _ := os.ReadFile(filepath.Join(added, "lib.txt")); string(got) != "new lib\n" {
			t.Errorf("the added directory's file was not edited: %q\n%s", got, o.stderr)
		}
		if got, _ := os.ReadFile(filepath.Join(other, "x.txt")); string(got) != "old other\n" {
			t.Errorf("a directory that was not added was edited: %q", got)
		}
		// The model is told of the directory.
		if reqs := w.srv.Requests(); !strings.Contains(reqs[0].System, added) {
			t.Error("the system prompt does not name the added directory")
		}
		if o := w.run("", "-p", "hi", "--add-dir", filepath.Join(outside, "nope")); o.code != 2 || !strings.Contains(o.stderr, "--add-dir") {
			t.Errorf("a missing --add-dir: exit %d %q", o.code, o.stderr)
		}
	})
}

// --debug prints ponder's debug log on standard error; the system prompt
// file flags and the dashed tool flags work as Claude Code's do.
func TestDebugPromptFilesAndDashedFlags(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, calls("touch it", bashCall("touch dashed"))...)
		extra := filepath.Join(t.TempDir(), "extra.md")
		os.WriteFile(extra, []byte("EXTRA-INSTRUCTIONS-FROM-A-FILE"), 0o644)
		o := w.mustRun(0, "", "-p", "touch it", "--debug", "--append-system-prompt-file", extra, "--allowed-tools", "Bash(touch:*)")
		if !w.exists("dashed") {
			t.Error("--allowed-tools did not allow the command")
		}
		for _, want := range []string{"model request", "model=", "kind=tool_started", "msg=settings"} {
			if !strings.Contains(o.stderr, want) {
				t.Errorf("the debug log lacks %q:\n%s", want, o.stderr)
			}
		}
		if reqs := w.srv.Requests(); !strings.Contains(reqs[0].System, "EXTRA-INSTRUCTIONS-FROM-A-FILE") {
			t.Error("--append-system-prompt-file did not reach the system prompt")
		}
		if o := w.run("", "-p", "hi", "--system-prompt", "x", "--system-prompt-file", extra); o.code != 2 {
			t.Errorf("both system prompt flags: exit %d", o.code)
		}
		w.srv.Add(calls("touch again", bashCall("touch denied-dashed"))...)
		w.mustRun(0, "", "-p", "touch again", "--allowed-tools", "Bash(touch:*)", "--disallowed-tools", "Bash(touch:*)")
		if w.exists("denied-dashed") {
			t.Error("--disallowed-tools did not deny the command")
		}
	})
}
