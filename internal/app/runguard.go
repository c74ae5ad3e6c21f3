package app

import (
	"path/filepath"

	"github.com/ponder-agent/ponder/internal/runguard"
)

// runGuard watches the files that decide what ponder runs in a later
// session or turn: the project's and the user's settings (hooks, MCP
// servers, permission rules), the project's .mcp.json, and the settings
// of Claude Code, which shares the project.
func runGuard(dir, configDir string) *runguard.Guard {
	return runguard.New(
		filepath.Join(dir, ".ponder", "settings.json"),
		filepath.Join(dir, ".ponder", "settings.local.json"),
		filepath.Join(dir, ".mcp.json"),
		filepath.Join(dir, ".claude", "settings.json"),
		filepath.Join(dir, ".claude", "settings.local.json"),
		filepath.Join(configDir, "settings.json"),
	)
}
