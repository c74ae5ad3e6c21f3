package app

import (
	"path/filepath"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/team"
)

// teamKeyRules keep every team's key (team.KeyName) from the model: no
// tool reads or replaces it, and the kernel keeps the commands ponder starts from
// reading it (the sandbox's deny layer, which deny rules feed), so a
// command that runs without asking (in plan mode, a reader) cannot sign
// an answer to a teammate's plan. It holds in every session, lead or not:
// the key is of every team under the config directory.
func (a *App) teamKeyRules() permission.RuleSet {
	set := permission.RuleSet{Source: permission.SourceUser, File: "ponder's team keys"}
	dirs := []string{a.cfg.ConfigDir}
	if d, err := filepath.EvalSymlinks(a.cfg.ConfigDir); err == nil && d != a.cfg.ConfigDir {
		dirs = append(dirs, d)
	}
	for _, dir := range dirs {
		path := "/" + permission.EscapeGlob(filepath.ToSlash(filepath.Join(dir, "teams"))) + "/**/" + team.KeyName
		set.Deny = append(set.Deny, "Read("+path+")", "Edit("+path+")")
	}
	return set
}
