package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// Started in a nested repository (a submodule, a vendored repository, a
// folder with its own .ponder), ponder still meets the outer project's
// deny and ask rules, with their paths anchored at the outer root.
func TestNestedProjectKeepsTheOuterRules(t *testing.T) {
	for _, kind := range []string{"git", "ponder"} {
		t.Run(kind, func(t *testing.T) {
			forAPIs(t, func(t *testing.T, api string) {
				w := newWorld(t, api)
				base := filepath.Dir(w.dir)
				w.write(".env", "DB_PASSWORD=OUTER-SECRET-HUNTER2\n")
				w.write(".ponder/settings.local.json", `{"permissions":{"deny":["Bash(rm:*)","Read(.env)"]}}`)
				victim := filepath.Join(base, "victim")
				os.MkdirAll(victim, 0o755)
				os.WriteFile(filepath.Join(victim, "f"), []byte("x"), 0o644)
				inner := filepath.Join(w.dir, "vendor", "lib")
				if kind == "git" {
					if out, err := exec.Command("git", "init", "-q", inner).CombinedOutput(); err != nil {
						t.Fatalf("%v %s", err, out)
					}
				} else {
					os.MkdirAll(filepath.Join(inner, ".ponder"), 0o755)
				}
				w.srv.Add(calls("tidy up",
					bashCall("rm -rf "+victim),
					fakemodel.ToolCall{Name: "Read", Input: map[string]any{"file_path": filepath.Join(w.dir, ".env")}},
					bashCall("touch made-inside"))...)
				outer := w.dir
				w.dir = inner
				w.mustRun(0, "", "-p", "tidy up", "--dangerously-skip-permissions", "--permission-mode", "bypassPermissions")
				w.dir = outer
				res := lastResults(t, w, 3)
				if _, err := os.Stat(filepath.Join(victim, "f")); err != nil || !failed(res[0]) {
					t.Errorf("the outer project's deny rule did not hold for rm: %q", res[0].Content)
				}
				for _, r := range w.srv.Requests() {
					if strings.Contains(string(r.Body), "HUNTER2") {
						t.Fatal("the outer project's .env reached the model")
					}
				}
				if !strings.Contains(res[0].Content, "Bash(rm:*)") {
					t.Errorf("the refusal does not name the rule: %q", res[0].Content)
				}
				if failed(res[2]) {
					t.Errorf("other commands should run: %q", res[2].Content)
				}
			})
		})
	}
}
