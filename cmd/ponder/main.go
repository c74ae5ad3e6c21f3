// Command ponder is a coding agent for the terminal with an enforced plan
// mode.
package main

import (
	"os"

	"github.com/ponder-agent/ponder/internal/cli"
	"github.com/ponder-agent/ponder/internal/pagecache"
)

func main() {
	pagecache.Advise()
	os.Exit(cli.Main())
}
