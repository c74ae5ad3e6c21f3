package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// ponder keeps its state in its config directory: a run that writes
// files (its plan, its transcript) puts nothing in $HOME's cache.
func TestStateStaysInTheConfigDirectory(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			writePlanOnly(fakemodel.Match{LastUser: "make a plan"}),
			fakemodel.Reply{Name: "planned", When: fakemodel.Match{ToolResult: "Created"}, Text: "planned"},
		)
		home := t.TempDir()
		w.extraEnv = []string{"HOME=" + home, "XDG_CACHE_HOME="}
		w.mustRun(0, "", "-p", "make a plan", "--permission-mode", "plan")
		if _, err := os.Stat(filepath.Join(w.cfg, "tempname.key")); err != nil {
			t.Errorf("no key in the config directory: %v", err)
		}
		var found []string
		filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
			if p != home {
				found = append(found, p)
			}
			return nil
		})
		if len(found) > 0 {
			t.Errorf("ponder wrote into $HOME: %v", found)
		}
	})
}
