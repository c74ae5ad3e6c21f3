package config

import (
	"os"
	"path/filepath"
	"strings"
)

// FindRoot returns the project root for a session started in dir: the
// nearest directory at or above dir that holds .git (a directory, or the
// file of a worktree or submodule) or .ponder, so that a session started
// in a subdirectory meets the repository's settings and rules. A .ponder
// that is ponder's own configuration directory does not count, and
// neither does the home directory or anything above it (a home kept in
// git would make every folder below it one project): then, and when
// nothing is found, dir itself is the root.
func FindRoot(dir, configDir, home string) string {
	dir = filepath.Clean(dir)
	canonConfig := resolved(configDir)
	canonHome := resolved(home)
	for d := dir; ; {
		if exists(filepath.Join(d, ".git")) || isProjectDir(filepath.Join(d, ".ponder"), canonConfig) {
			if home != "" && isAncestorOrSame(resolved(d), canonHome) {
				return dir
			}
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// isProjectDir reports whether p is a directory other than ponder's own
// configuration directory.
func isProjectDir(p, canonConfig string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir() && resolved(p) != canonConfig
}

// resolved returns p absolute with symlinks resolved, or cleaned when it
// cannot be resolved.
func resolved(p string) string {
	if p == "" {
		return ""
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
}

// isAncestorOrSame reports whether a is b or a directory above it.
func isAncestorOrSame(a, b string) bool {
	if a == b {
		return true
	}
	rel, err := filepath.Rel(a, b)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
