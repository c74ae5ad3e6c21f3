package permission

import (
	"path/filepath"
	"strings"
)

// DirDecidesWhatRuns says why the project directory rel (relative to the
// project root) must not receive files ponder writes on its own, such as
// plans, or "" when it may. A directory counts when a file in it would be
// one of the files that decide what runs (anything below .git, .ponder,
// .claude, .vscode, .github/workflows and the like), when it lies in
// .github (CI and its templates), or in a directory named hooks (git,
// husky and other tools run the scripts there).
func DirDecidesWhatRuns(rel string) string {
	rel = filepath.ToSlash(filepath.Clean(rel))
	if name, why := protectedRel(rel + "/plan.md"); why != "" {
		return name + ": " + why
	}
	for _, el := range strings.Split(strings.ToLower(rel), "/") {
		switch el {
		case ".github":
			return ".github: CI services and the forge read what is there"
		case "hooks":
			return "hooks: git and other tools run the scripts in such a directory"
		}
	}
	return ""
}
