package app

import (
	"path/filepath"

	"github.com/ponder-agent/ponder/internal/runguard"
)

// runGuard watches the files that make something run later without
// anyone choosing to run it: the project's and the user's settings
// (hooks, MCP servers, permission rules), the project's .mcp.json, the
// settings of Claude Code, which shares the project, git's hooks (run by
// a plain commit), direnv's .envrc and the editor's tasks (run when the
// folder opens). git's config is left to the permission rules: commands
// such as git push -u and git init write it in the ordinary course.
func runGuard(dir, configDir string) *runguard.Guard {
	return runguard.New(
		filepath.Join(dir, ".ponder", "settings.json"),
		filepath.Join(dir, ".ponder", "settings.local.json"),
		filepath.Join(dir, ".mcp.json"),
		filepath.Join(dir, ".claude", "settings.json"),
		filepath.Join(dir, ".claude", "settings.local.json"),
		filepath.Join(configDir, "settings.json"),
		filepath.Join(dir, ".envrc"),
		filepath.Join(dir, ".vscode", "tasks.json"),
	).WithDirs(
		filepath.Join(dir, ".git", "hooks"),
		filepath.Join(dir, ".husky"),
		filepath.Join(dir, ".githooks"),
	)
}
