package sandbox

import (
	"os"
	"path/filepath"
	"strings"
)

// Read-only paths are matched without regard to case, below the longest
// part of them that exists as written: a file system that tells
// Makefile from makefile holds both when makefile is named, and one that
// does not opens either. What a name matches is found afresh each time.

// foldMatches returns the existing paths that p names when the elements
// below its longest existing ancestor are compared without regard to
// case, and p itself when it exists as written. dirs caches listings.
func foldMatches(p string, dirs map[string][]os.DirEntry) []string {
	p = filepath.Clean(p)
	if !filepath.IsAbs(p) {
		return nil
	}
	var rest []string
	base := p
	for {
		if _, err := os.Lstat(base); err == nil {
			break
		}
		parent := filepath.Dir(base)
		if parent == base {
			return nil
		}
		rest = append([]string{filepath.Base(base)}, rest...)
		base = parent
	}
	if len(rest) == 0 {
		// p exists: look for its other spellings next to it.
		if base == "/" {
			return []string{base}
		}
		rest, base = []string{filepath.Base(base)}, filepath.Dir(base)
	}
	cur := []string{base}
	for _, el := range rest {
		var next []string
		for _, d := range cur {
			ents, ok := dirs[d]
			if !ok {
				ents, _ = os.ReadDir(d)
				dirs[d] = ents
			}
			for _, e := range ents {
				if strings.EqualFold(e.Name(), el) {
					next = append(next, filepath.Join(d, e.Name()))
				}
			}
		}
		cur = next
	}
	return cur
}

// resolveReadOnly returns every existing path the read-only list names,
// whatever their case, and the paths it names that do not exist.
func resolveReadOnly(paths []string) (existing, missing []string) {
	dirs := map[string][]os.DirEntry{}
	for _, p := range paths {
		m := foldMatches(p, dirs)
		if len(m) == 0 {
			missing = append(missing, filepath.Clean(p))
		}
		existing = append(existing, m...)
	}
	return existing, missing
}
