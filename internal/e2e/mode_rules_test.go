package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// A rule for plan mode alone (planMode.commands, permissions.modeRules)
// lets a command the classifier cannot prove read-only run unasked in
// plan mode, confined, and does not count in default mode.
func TestModeScopedRuleCountsInPlanModeOnly(t *testing.T) {
	haveSandbox(t, "landlock")
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		bin := filepath.Join(filepath.Dir(w.dir), "bin")
		os.MkdirAll(bin, 0o755)
		// A gh of the test's own: it prints the issue and tries to leave
		// a file in the project.
		os.WriteFile(filepath.Join(bin, "gh"), []byte("#!/bin/sh\necho \"issue $3: the title\"\ntouch gh-wrote 2>/dev/null || echo 'write refused'\n"), 0o755)
		w.extraEnv = append(w.extraEnv, "PATH="+bin+":"+os.Getenv("PATH"))
		settings := `{"planMode": {"commands": ["gh issue view:*"]},
 "permissions": {"modeRules": [{"modes": ["plan"], "allow": ["Bash(gh pr view:*)"]}]}}`
		os.MkdirAll(w.cfg, 0o755)
		if err := os.WriteFile(filepath.Join(w.cfg, "settings.json"), []byte(settings), 0o644); err != nil {
			t.Fatal(err)
		}

		calls := []fakemodel.ToolCall{bashCall("gh issue view 12"), bashCall("gh pr view 7")}
		w.srv.Add(callsThenDone("look at issue 12", calls)...)
		w.mustRun(0, "", "-p", "look at issue 12", "--permission-mode", "plan")
		for i, r := range w.lastResults(len(calls)) {
			if failed(r) || !strings.Contains(r.Content, "the title") || !strings.Contains(r.Content, "write refused") {
				t.Errorf("plan mode, call %d: %q", i, r.Content)
			}
		}
		if _, err := os.Stat(filepath.Join(w.dir, "gh-wrote")); err == nil {
			t.Fatal("the command ran unconfined in plan mode")
		}

		w.srv.Add(callsThenDone("look again", calls)...)
		w.mustRun(0, "", "-p", "look again", "--permission-mode", "default")
		for i, r := range w.lastResults(len(calls)) {
			if !failed(r) || !strings.Contains(r.Content, "needs approval") {
				t.Errorf("default mode, call %d ran or failed otherwise: %q", i, r.Content)
			}
		}
		if _, err := os.Stat(filepath.Join(w.dir, "gh-wrote")); err == nil {
			t.Fatal("a plan-mode rule let the command run in default mode")
		}
	})
}
