package permission

import "testing"

func TestDirDecidesWhatRuns(t *testing.T) {
	for rel, bad := range map[string]bool{
		"plans":                false,
		"docs/plans":           false,
		".git":                 true,
		".git/hooks":           true,
		".GIT/x":               true,
		".ponder/plans":        true,
		".claude":              true,
		".vscode":              true,
		".github":              true,
		".github/workflows":    true,
		".husky":               true,
		"tools/hooks":          true,
		"sub/.git/x":           true,
		".devcontainer/plans":  true,
		"notes/.github-mirror": false,
	} {
		if got := DirDecidesWhatRuns(rel) != ""; got != bad {
			t.Errorf("%q: %v, want %v (%s)", rel, got, bad, DirDecidesWhatRuns(rel))
		}
	}
}
