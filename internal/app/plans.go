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
	plansDir, _, cfgDir, err := plansLocation()
	if err != nil {
		return nil, err
	}
	return plans.List(plansDir, cfgDir)
}

// PlansDirectory is where this project's plans are, and whether that is
// the directory every project shares (no plansDirectory setting).
func PlansDirectory() (dir string, shared bool, err error) {
	dir, shared, _, err = plansLocation()
	return dir, shared, err
}

func plansLocation() (plansDir string, shared bool, cfgDir string, err error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false, "", err
	}
	cfgDir, err = config.DefaultDir(os.Getenv)
	if err != nil {
		return "", false, "", &UsageError{Msg: "settings: " + err.Error()}
	}
	home, _ := os.UserHomeDir()
	root := config.FindRoot(dir, cfgDir, home)
	cfg, err := config.Load(config.Options{ConfigDir: cfgDir, ProjectDir: root})
	if err != nil {
		return "", false, "", &UsageError{Msg: "settings: " + err.Error()}
	}
	setting := config.Str(cfg.Settings.PlansDirectory, "")
	plansDir = planmode.PlansDir(planmode.Config{ConfigDir: cfg.ConfigDir, ProjectDir: root, PlansDirectory: setting})
	shared = plansDir == planmode.PlansDir(planmode.Config{ConfigDir: cfg.ConfigDir, ProjectDir: root})
	return plansDir, shared, cfg.ConfigDir, nil
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

// PlanVersion is one revision of a plan (see plans.Version).
type PlanVersion = plans.Version

// PlanVersions lists the revisions of one of this project's plans (by
// name or the start of it; "" for the newest), oldest first, with the
// plan's name.
func PlanVersions(slug string) (string, []PlanVersion, error) {
	p, err := FindPlan(slug)
	if err != nil {
		return "", nil, err
	}
	_, _, cfgDir, err := plansLocation()
	if err != nil {
		return "", nil, err
	}
	vs, err := plans.Versions(cfgDir, p.Slug)
	return p.Slug, vs, err
}

// PlanDiff is the unified diff between two versions of a plan (numbers
// from `plans log`); 0 and 0 compare the last two.
func PlanDiff(slug string, a, b int) (string, error) {
	name, vs, err := PlanVersions(slug)
	if err != nil {
		return "", err
	}
	d, err := plans.Diff(vs, name, a, b)
	if err != nil {
		return "", &UsageError{Msg: err.Error()}
	}
	return d, nil
}
