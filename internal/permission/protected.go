package permission

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ponder-agent/ponder/internal/runfiles"
)

// Accept-edits mode lets edits inside the project through without asking,
// except edits of files that decide what runs (the table in runfiles): a
// change there turns a later command the user allowed, or one judged
// read-only, or simply opening the folder, into running whatever the edit
// says. Those still ask, and so does any write to a hidden path, where
// tools no table names keep their configuration. Plan mode refuses them
// like any other file; bypass mode allows them, as the user chose.
//
// Both the path as given and its resolved form are checked, so neither a
// symlink nor ".." reaches one of them unasked.

// configuresExecution returns why accept-edits mode must ask before
// writing one of paths (canon are their resolved forms), or "".
func (e *Engine) configuresExecution(paths, canon []string) string {
	for i, p := range paths {
		for _, pair := range [][2]string{{e.match.root, p}, {e.canonRoot, canon[i]}} {
			rel, err := filepath.Rel(pair[0], pair[1])
			if err != nil {
				continue
			}
			rel = filepath.ToSlash(rel)
			if name, why := protectedRel(rel); why != "" {
				return fmt.Sprintf("%s is a file that decides what runs (%s: %s), so accept-edits mode still asks before changing it.", p, name, why)
			}
			if el, hidden := runfiles.Hidden(rel); hidden {
				return fmt.Sprintf("%s lies in a hidden path (%s), where tools keep configuration that may make something run, so accept-edits mode asks before changing it.", p, el)
			}
		}
		if n := hardLinks(canon[i]); n > 1 {
			return fmt.Sprintf("%s has %d hard links, so writing it would change another file too; accept-edits mode asks first.", p, n)
		}
	}
	return ""
}

// protectedRel checks a project-relative, slash-separated path against the
// table of files that decide what runs; it returns the pattern that
// matched and why.
func protectedRel(rel string) (string, string) {
	if e, ok := runfiles.Match(rel); ok {
		return e.Pattern, e.Why
	}
	return "", ""
}

// hardLinks returns the number of links of an existing regular file, or 0.
func hardLinks(p string) uint64 {
	info, err := os.Lstat(p)
	if err != nil || !info.Mode().IsRegular() {
		return 0
	}
	return linkCount(info)
}
