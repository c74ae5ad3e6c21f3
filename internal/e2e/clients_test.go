package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ponder-agent/ponder/internal/testenv"
)

// nodeModules returns the node_modules directory holding the real
// third-party clients (installed by scripts/e2e-clients/install.sh, whose
// output PONDER_E2E_NODE_MODULES names), after checking that the package
// is there. Without them the test is skipped, unless
// PONDER_E2E_REQUIRE_CLIENTS or PONDER_CI_REQUIRE_TOOLS is set (as in CI),
// when it fails.
func nodeModules(t *testing.T, pkg string) string {
	t.Helper()
	missing := func(why string) {
		t.Helper()
		msg := why + " (run scripts/e2e-clients/install.sh and set PONDER_E2E_NODE_MODULES to what it prints)"
		if os.Getenv("PONDER_E2E_REQUIRE_CLIENTS") != "" || testenv.Required() {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if _, err := exec.LookPath("node"); err != nil {
		missing("node is not installed")
	}
	dir := os.Getenv("PONDER_E2E_NODE_MODULES")
	if dir == "" {
		missing("PONDER_E2E_NODE_MODULES is not set")
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(pkg), "package.json")); err != nil {
		missing(pkg + " is not installed in " + dir)
	}
	return dir
}
