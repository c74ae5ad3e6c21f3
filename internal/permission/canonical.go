package permission

import (
	"os"
	"path/filepath"
)

// Canonical returns p absolute and cleaned with every symlink resolved. For
// a path that does not exist yet, the nearest existing ancestor is resolved
// and the rest appended, which is where a write would land.
func Canonical(p string) string { return canonical(p, 0) }

// maxLinkHops bounds how many dangling symlinks canonical follows by hand,
// so that a link loop cannot make it recurse forever.
const maxLinkHops = 40

func canonical(p string, hops int) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	if resolved, err := filepath.EvalSymlinks(abs); err == nil {
		return resolved
	}
	rest := ""
	dir := abs
	for {
		if _, err := os.Lstat(dir); err == nil {
			// It exists but did not resolve: a dangling symlink. Follow
			// it by hand so that a write through it is judged by its
			// target.
			if target, err := os.Readlink(dir); err == nil && hops < maxLinkHops {
				if !filepath.IsAbs(target) {
					target = filepath.Join(filepath.Dir(dir), target)
				}
				return canonical(filepath.Join(target, rest), hops+1)
			}
			return filepath.Join(dir, rest)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return abs
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
		if resolved, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(resolved, rest)
		}
	}
}

// bothForms returns every path as given and, where it differs, its
// canonical form, so that a rule matches however the file was named.
func bothForms(paths, canon []string) []string {
	out := make([]string, 0, 2*len(paths))
	for i, p := range paths {
		out = append(out, p)
		if canon[i] != p {
			out = append(out, canon[i])
		}
	}
	return out
}
