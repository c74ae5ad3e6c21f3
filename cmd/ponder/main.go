// Command ponder is a coding agent for the terminal with an enforced plan
// mode.
package main

import (
	"os"

	"github.com/ponder-agent/ponder/internal/cli"
)

func main() { os.Exit(cli.Main()) }
