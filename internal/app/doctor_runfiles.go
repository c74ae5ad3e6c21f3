package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ponder-agent/ponder/internal/runfiles"
)

// RunFiles is what ponder doctor says of the files that decide what runs.
type RunFiles struct {
	// Categories are "category: n patterns", in the table's order.
	Categories []string
	// Present are the table's paths that exist in the project, as
	// "path (category)", and what git's config names.
	Present []string
	// Guarded are the files and trees the settings guard compares
	// around every call the user did not approve one by one.
	Guarded []string
}

func describeRunFiles(dir, configDir string) RunFiles {
	var r RunFiles
	count := map[runfiles.Category]int{}
	for _, e := range runfiles.Table() {
		count[e.Category]++
	}
	for _, c := range runfiles.Categories() {
		r.Categories = append(r.Categories, fmt.Sprintf("%s: %d", c, count[c]))
	}
	home, _ := os.UserHomeDir()
	for _, p := range runfiles.Paths(dir, "", "") {
		if !p.Exists {
			continue
		}
		rel, err := filepath.Rel(dir, p.Path)
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = p.Path
		}
		what := string(p.Entry.Category)
		if what == "" {
			what = p.Why
		}
		r.Present = append(r.Present, rel+" ("+what+")")
	}
	w := runfiles.Watch([]string{dir}, home, configDir)
	for _, t := range w.Trees {
		if _, err := os.Lstat(t.Path); err != nil {
			continue // watched for appearing, but nothing to show
		}
		line := t.Path + "/ (every file"
		switch {
		case t.Match != nil:
			line = t.Path + "/ (the files directly in it named like a row of the table"
		case t.Depth == 1:
			line = t.Path + "/ (the files directly in it"
		}
		if len(t.Skip) > 0 {
			line += " but " + strings.Join(t.Skip, ", ")
		}
		r.Guarded = append(r.Guarded, line+")")
	}
	for _, f := range w.Files {
		if _, err := os.Lstat(f); err == nil {
			r.Guarded = append(r.Guarded, f)
		}
	}
	return r
}
