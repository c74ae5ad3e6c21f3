package app

import (
	"os"
	"path/filepath"

	"github.com/ponder-agent/ponder/internal/skills"
	"github.com/ponder-agent/ponder/internal/tool"
)

// loadSkills reads the skill folders of <config>/skills, ~/.claude/skills,
// .ponder/skills and .claude/skills; the user's come first, so a
// repository cannot replace them. A project's skills are text, like its
// AGENTS.md, so they are offered whether or not the folder is trusted.
func (a *App) loadSkills() {
	home, _ := os.UserHomeDir()
	dirs := []skills.Dir{{Path: filepath.Join(a.cfg.ConfigDir, "skills"), Scope: "user"}}
	if home != "" {
		dirs = append(dirs, skills.Dir{Path: filepath.Join(home, ".claude", "skills"), Scope: "user"})
	}
	dirs = append(dirs,
		skills.Dir{Path: filepath.Join(a.root, ".ponder", "skills"), Scope: "project"},
		skills.Dir{Path: filepath.Join(a.root, ".claude", "skills"), Scope: "project"})
	list, problems := skills.Load(dirs)
	for _, p := range problems {
		a.warnings = append(a.warnings, "skipped "+p.Error())
	}
	a.skills = list
}

// addSkillTool offers the skills through the Skill tool, when there are
// any.
func (a *App) addSkillTool(reg *tool.Registry) {
	if len(a.skills) > 0 {
		reg.Add(skills.NewTool(a.skills))
	}
}

// SkillInfo describes a skill to front ends.
type SkillInfo struct {
	Name, Description, Scope, Path string
}

// Skills lists the skills the model is offered.
func (a *App) Skills() []SkillInfo {
	out := make([]SkillInfo, len(a.skills))
	for i, s := range a.skills {
		out[i] = SkillInfo{Name: s.Name, Description: s.Description, Scope: s.Scope, Path: s.Path}
	}
	return out
}
