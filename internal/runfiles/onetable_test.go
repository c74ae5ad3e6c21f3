package runfiles

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The table is the one list of the files that decide what runs: a
// production file elsewhere that spells three or more of its names as
// string literals is a second list, which would fall out of step. The
// names every loader of ponder's own files spells (.git, .ponder,
// .claude, .mcp.json, AGENTS.md, CLAUDE.md) do not count.
func TestNoSecondTable(t *testing.T) {
	root := filepath.Join("..", "..")
	var names []string
	for _, e := range Table() {
		switch e.Pattern {
		case ".git", ".ponder", ".claude", ".mcp.json", "AGENTS.md", "CLAUDE.md":
			continue
		}
		if !strings.ContainsAny(e.Pattern, "*?[") {
			names = append(names, `"`+e.Pattern+`"`)
		}
	}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if n := d.Name(); n == "runfiles" || n == "testdata" || (strings.HasPrefix(n, ".") && p != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		var found []string
		for _, n := range names {
			if strings.Contains(string(data), n) {
				found = append(found, n)
			}
		}
		if len(found) >= 3 {
			t.Errorf("%s spells %d names of the table (%s): read them from runfiles instead", p, len(found), strings.Join(found, " "))
		}
		return nil
	})
}
