package app

import (
	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/permission"
)

// pickEffort settles the effort of each role: --plan-effort over the
// settings' effort.plan for plan mode, effort.implement for the others.
func (a *App) pickEffort(flag string, cfg *config.Config) error {
	plan := config.Str(cfg.Settings.Effort.Plan, "")
	if flag != "" {
		plan = flag
	}
	var err error
	if a.planEffort, err = llm.ParseEffort(plan); err != nil {
		return &UsageError{Msg: "--plan-effort: " + err.Error()}
	}
	// The settings' values were checked when they were read.
	a.implementEffort, _ = llm.ParseEffort(config.Str(cfg.Settings.Effort.Implement, ""))
	return nil
}

// effortFor is the effort of the main conversation's next request.
func (a *App) effortFor(mode permission.Mode) llm.Effort {
	if mode == permission.ModePlan {
		return a.planEffort
	}
	return a.implementEffort
}
