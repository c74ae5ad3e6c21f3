package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// checkAddDirs turns the --add-dir directories into absolute paths,
// relative ones from dir, and refuses one that is not a directory.
func checkAddDirs(dirs []string, dir string) ([]string, error) {
	var out []string
	for _, d := range dirs {
		if strings.TrimSpace(d) == "" {
			return nil, &UsageError{Msg: "--add-dir: give a directory"}
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(dir, d)
		}
		d = filepath.Clean(d)
		info, err := os.Stat(d)
		if err != nil {
			return nil, &UsageError{Msg: fmt.Sprintf("--add-dir %s: %v", d, err)}
		}
		if !info.IsDir() {
			return nil, &UsageError{Msg: fmt.Sprintf("--add-dir %s: not a directory", d)}
		}
		out = append(out, d)
	}
	return out, nil
}

// WorkspaceDirs are the directories the session works in: the project
// root and those of --add-dir, canonical. Reads there are free and
// accept-edits accepts edits there (the permission engine decides); a
// sandbox that lets approved commands write the workspace takes its
// writable set from here.
func (a *App) WorkspaceDirs() []string { return a.perm.WorkspaceDirs() }

// addDirsPrompt tells the model of the directories added to the project.
func addDirsPrompt(dirs []string) string {
	if len(dirs) == 0 {
		return ""
	}
	return "\n\nAdditional working directories (you may read and edit files there as in the project): " + strings.Join(dirs, ", ") + "\n"
}
