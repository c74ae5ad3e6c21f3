package app

import (
	"os"

	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/plans"
)

// PlanInfo describes a plan file: its name (slug), path, when it last
// changed, the session that wrote it and its title.
type PlanInfo = plans.Info

// Plans lists the plans of the project in the working directory, newest
// first, from the plans directory its settings name.
func Plans() ([]PlanInfo, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	cfgDir, err := config.DefaultDir(os.Getenv)
	if err != nil {
		return nil, &UsageError{Msg: "settings: " + err.Error()}
	}
	home, _ := os.UserHomeDir()
	root := config.FindRoot(dir, cfgDir, home)
	cfg, err := config.Load(config.Options{ConfigDir: cfgDir, ProjectDir: root})
	if err != nil {
		return nil, &UsageError{Msg: "settings: " + err.Error()}
	}
	plansDir := planmode.PlansDir(planmode.Config{ConfigDir: cfg.ConfigDir, ProjectDir: root, PlansDirectory: config.Str(cfg.Settings.PlansDirectory, "")})
	return plans.List(plansDir, cfg.ConfigDir)
}

// FindPlan picks one of this project's plans by its name or the start of
// it; "" picks the newest. A name that picks none, or several, is a usage
// error.
func FindPlan(slug string) (PlanInfo, error) {
	list, err := Plans()
	if err != nil {
		return PlanInfo{}, err
	}
	p, err := plans.Find(list, slug)
	if err != nil {
		return PlanInfo{}, &UsageError{Msg: err.Error()}
	}
	return p, nil
}
