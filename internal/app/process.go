package app

import (
	"github.com/ponder-agent/ponder/internal/proctree"
	"github.com/ponder-agent/ponder/internal/sandbox"
)

// SetUpProcess prepares ponder's own process before any session starts:
// no core dumps and its /proc entries closed to its commands, then ponder
// becomes the subreaper of whatever its commands leave behind. Call the
// returned function on the way out: it kills what is left. A hardening
// step that failed is returned as a warning; ponder goes on without it.
func SetUpProcess() (shutdown func(), warning error) {
	warning = sandbox.HardenProcess()
	return proctree.Default().Shutdown, warning
}
