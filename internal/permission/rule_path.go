package permission

import (
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// pathMatches matches a path pattern: "~/" is the home directory, an
// absolute pattern is taken as is, anything else is relative to the
// project root. A pattern naming a directory covers what is inside it.
func (m matcher) pathMatches(pattern, path string) bool {
	switch {
	case strings.HasPrefix(pattern, "~/"):
		pattern = filepath.Join(m.home, pattern[2:])
	case filepath.IsAbs(pattern):
	default:
		pattern = filepath.Join(m.root, pattern)
	}
	pattern = filepath.ToSlash(pattern)
	path = filepath.ToSlash(path)
	if ok, _ := doublestar.Match(pattern, path); ok {
		return true
	}
	ok, _ := doublestar.Match(strings.TrimSuffix(pattern, "/")+"/**", path)
	return ok && !strings.ContainsAny(pattern, "*?[{")
}
