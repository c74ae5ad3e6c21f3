package builtin

import (
	"fmt"

	"github.com/ponder-agent/ponder/internal/tool"
)

// runInBackground starts the command and returns at once; the command's
// output is kept for BashOutput, and it runs until it ends, KillShell
// stops it, or the session ends. onEnd, when set, runs once it has ended.
func (c *bashCall) runInBackground(confine tool.Confinement, onEnd func()) tool.Result {
	if c.opts.Shells == nil {
		return tool.Errorf("Background commands are not available in this session; run the command without run_in_background.")
	}
	out := &shellOutput{}
	r, err := c.start(confine, out)
	if err != nil {
		return startFailed(err)
	}
	sh := c.opts.Shells.add(c.command, r, out, onEnd)
	return tool.Result{
		Content: fmt.Sprintf("Started in the background as %s. Read its output with BashOutput (bash_id %q) and stop it with KillShell (shell_id %q).", sh.id, sh.id, sh.id),
		Summary: "Started " + sh.id + ": " + c.summary(),
	}
}
