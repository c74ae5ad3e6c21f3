package app

import (
	"fmt"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/permission"
)

// modeChanged keeps commands outside the sandbox out of plan mode: as plan
// mode begins, every such command still running (a background job, a
// subagent's command, a foreground command of a parallel call) is killed,
// and none may start until plan mode ends. It runs before the change is
// published, so no front end sees plan mode while such a command runs.
func (a *App) modeChanged(mc event.ModeChanged) {
	a.hooksModeChanged(mc)
	if a.shells == nil {
		return
	}
	plan := string(permission.ModePlan)
	switch {
	case mc.To == plan && mc.From != plan:
		if n := a.shells.EnterPlanMode(); n > 0 {
			a.emit(event.Notice{Level: "info", Text: fmt.Sprintf(
				"Plan mode began: stopped %d command(s) running outside the sandbox.", n)})
		}
	case mc.From == plan && mc.To != plan:
		a.shells.LeavePlanMode()
	}
}
