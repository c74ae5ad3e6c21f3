package permission

import (
	"errors"
	"fmt"
	"os"
)

// This file is plan mode's rule on changing files, written once: in plan
// mode nothing but the plan file may change. The engine applies it to
// every call that writes (readonly.go), the Write and Edit tools apply it
// again when they run, against a path swapped since the decision
// (tool/builtin/planwrite.go), and a rewind applies it before it restores
// anything (app/rewind.go).

// PlanModeRule is the rule in a few words, for front ends that describe
// the modes.
const PlanModeRule = "nothing but the plan file may change"

// ErrPlanModeNoPlanFile refuses a change in plan mode when the caller has
// no plan file: then nothing may change.
var ErrPlanModeNoPlanFile = errors.New("plan mode has no plan file here, so nothing may change")

// PlanModeWrite returns nil when changing paths keeps to plan mode's rule
// in mode: always outside plan mode, and in it only when every path is
// planFile. Otherwise it says why not. (Before a write is allowed, the
// engine also makes sure the plan file is not a link to another file:
// planFileIntact.)
func PlanModeWrite(mode Mode, planFile string, paths ...string) error {
	canon := make([]string, len(paths))
	for i, p := range paths {
		canon[i] = Canonical(p)
	}
	return planModeWrite(mode, planFile, paths, canon)
}

// planModeWrite is PlanModeWrite with the paths' canonical forms given.
// Paths are compared after cleaning, making absolute and resolving
// symlinks, so "..", symlinked directories and links cannot reach another
// file.
func planModeWrite(mode Mode, planFile string, paths, canon []string) error {
	if mode != ModePlan {
		return nil
	}
	if planFile == "" {
		return ErrPlanModeNoPlanFile
	}
	if len(paths) == 0 {
		return errors.New("the call names no file")
	}
	plan := Canonical(planFile)
	for i, p := range paths {
		if canon[i] != plan {
			return fmt.Errorf("%s is not the plan file", p)
		}
	}
	return nil
}

// planFileIntact returns nil when the plan file is an ordinary file with
// a single link, or does not exist yet: were it a symlink or a hard link,
// writing it would change another file.
func planFileIntact(planFile string) error {
	info, err := os.Lstat(planFile)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot inspect the plan file: %v", err)
	}
	if info.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("the plan file %s is a symbolic link, so writing it would change another file; remove the link first", planFile)
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("the plan file %s is not a regular file", planFile)
	}
	if n := linkCount(info); n > 1 {
		return fmt.Errorf("the plan file %s has %d hard links, so writing it would change another file", planFile, n)
	}
	return nil
}
