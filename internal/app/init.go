package app

import (
	_ "embed"

	"github.com/ponder-agent/ponder/internal/commands"
)

//go:embed init.md
var initPrompt string

// initCommand is /init, ponder's own command: a prompt to look at the
// repository, reading only, then write an AGENTS.md draft. It is an
// ordinary prompt, so the reads and the write meet the permission rules
// as any other turn's do: the write asks unless the mode or a rule lets
// it through. It is the user's (ponder's) text, granting nothing.
var initCommand = commands.Command{Name: "init", Description: "write an AGENTS.md draft from a look at the repository",
	Body: initPrompt, Scope: commands.ScopeUser}
