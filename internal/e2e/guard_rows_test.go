package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// A command an allow rule lets run creates, at the project root, run
// files of every kind the table names (not only the few compared around
// every call) and changes git's other config files: a new .npmrc,
// lefthook.yml, .gitattributes, .cargo/config.toml, compose override,
// agent instructions, .git/commondir and .git/info/attributes. Each is
// removed after the call; the ordinary file it wrote stays.
func TestAllowedCommandNewRootRunFilesAndGitInternals(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		// The settings guard is the line behind the sandbox: these commands
		// run where there is none, as they would unconfined.
		w.extraEnv = append(w.extraEnv, "PONDER_SANDBOX=none")
		w.git("init", "-q")
		planted := []string{
			".npmrc", ".pre-commit-config.yaml", "lefthook.yml", ".gitattributes", ".cargo/config.toml",
			"AGENTS.md", "GEMINI.md", "CLAUDE.local.md", "compose.override.yaml", "pytest.ini", "Procfile.dev",
			".git/commondir", ".git/info/attributes",
		}
		lines := []string{"#!/bin/sh", "set -e", "mkdir -p .cargo .git/info"}
		for _, p := range planted {
			lines = append(lines, "echo planted > "+p)
		}
		lines = append(lines, "echo done > ordinary.txt")
		plant := w.write("plant.sh", strings.Join(lines, "\n")+"\n")
		os.Chmod(plant, 0o755)
		w.userSettings(`{"permissions":{"allow":["Bash(./plant.sh)"]}}`)
		w.srv.Add(calls("plant", bashCall("./plant.sh"))...)
		w.mustRun(0, "", "-p", "plant")
		res := lastResults(t, w, 1)
		if failed(res[0]) || w.read("ordinary.txt") != "done\n" {
			t.Fatalf("the allowed command did not run: %s", res[0].Content)
		}
		for _, p := range planted {
			if _, err := os.Lstat(filepath.Join(w.dir, p)); !os.IsNotExist(err) {
				t.Errorf("%s survived the call", p)
			}
		}
		if n := strings.Count(res[0].Content, "put it back"); n < len(planted) {
			t.Errorf("the model was told of %d changes put back, want %d:\n%s", n, len(planted), res[0].Content)
		}
	})
}

// A command started in the background writes run files after every
// call of the session was compared (the model's last reply waits until
// it has): they are put back when it ends, before the session is over.
func TestBackgroundCommandPlantIsPutBackWhenItEnds(t *testing.T) {
	w := newWorld(t, "anthropic")
	// The settings guard is the line behind the sandbox: these commands
	// run where there is none, as they would unconfined.
	w.extraEnv = append(w.extraEnv, "PONDER_SANDBOX=none")
	w.git("init", "-q")
	bg := w.write("bg.sh", strings.Join([]string{
		"#!/bin/sh",
		"while [ ! -f go.flag ]; do sleep 0.02; done",
		"mkdir -p .vscode",
		`echo '{"tasks":[]}' > .vscode/tasks.json`,
		"echo planted > .envrc",
		"echo planted > .npmrc",
		"echo done > bg-done.txt",
	}, "\n")+"\n")
	os.Chmod(bg, 0o755)
	w.userSettings(`{"permissions":{"allow":["Bash(./bg.sh)","Bash(touch go.flag)"]}}`)
	bgDone := filepath.Join(w.dir, "bg-done.txt")
	w.srv.Add(fakemodel.Reply{Name: "start", When: fakemodel.Match{LastUser: "start"},
		ToolCalls: []fakemodel.ToolCall{{Name: "Bash", Input: map[string]any{"command": "./bg.sh", "run_in_background": true}}}})
	w.srv.Add(fakemodel.Reply{Name: "then", When: fakemodel.Match{Func: func(r *fakemodel.Request) bool {
		return len(r.LastUser().ToolResults) == 1 && strings.Contains(r.LastUser().ToolResults[0].Content, "background")
	}}, ToolCalls: []fakemodel.ToolCall{bashCall("touch go.flag")}})
	w.srv.Add(fakemodel.Reply{Name: "end", When: fakemodel.Match{Func: func(r *fakemodel.Request) bool {
		if len(r.LastUser().ToolResults) != 1 || strings.Contains(r.LastUser().ToolResults[0].Content, "background") {
			return false
		}
		// The last reply waits for the background command's writes,
		// which thus come after every call's comparison.
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			if _, err := os.Stat(bgDone); err == nil {
				return true
			}
			time.Sleep(10 * time.Millisecond)
		}
		return true
	}}, Text: "done"})
	w.mustRun(0, "", "-p", "start")
	if w.read("bg-done.txt") != "done\n" {
		t.Fatal("the background command did not run to its end")
	}
	for _, p := range []string{".vscode", ".envrc", ".npmrc"} {
		if _, err := os.Lstat(filepath.Join(w.dir, p)); !os.IsNotExist(err) {
			t.Errorf("%s, written by a background command after its call returned, survived", p)
		}
	}
}
