// Command ponder is a coding agent for the terminal with an enforced plan
// mode.
package main

import (
	"os"

	"github.com/ponder-agent/ponder/internal/cli"
	// Collects the garbage of encoding each model request sooner (see
	// the package for the measurement).
	_ "github.com/ponder-agent/ponder/internal/memlimit"
	// Keeps ponder's credentials out of its process environment, early
	// in start-up (see the package).
	_ "github.com/ponder-agent/ponder/internal/shellenv/conceal"
)

func main() { os.Exit(cli.Main()) }
