package app

import (
	"path/filepath"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/team"
)

// teamKeyRules keep every team's key (team.KeyName) from the model: no
// tool reads it, and the kernel keeps the commands ponder starts from
// reading it (the sandbox's deny layer, which deny rules feed), so a
// command that runs without asking (in plan mode, a reader) cannot sign
// an answer to a teammate's plan. Nor do the file tools change anything
// of a team (its key, inboxes, records, the lead's published mode): a
// teammate's model may not forge what its lead or another member reads.
// It holds in every session, lead or not, for every team under the
// config directory.
func (a *App) teamKeyRules() permission.RuleSet {
	set := permission.RuleSet{Source: permission.SourceUser, File: "ponder's teams"}
	dirs := []string{a.cfg.ConfigDir}
	if d, err := filepath.EvalSymlinks(a.cfg.ConfigDir); err == nil && d != a.cfg.ConfigDir {
		dirs = append(dirs, d)
	}
	for _, dir := range dirs {
		teams := "/" + permission.EscapeGlob(filepath.ToSlash(filepath.Join(dir, "teams")))
		set.Deny = append(set.Deny, "Read("+teams+"/**/"+team.KeyName+")", "Edit("+teams+"/**)")
	}
	return set
}
