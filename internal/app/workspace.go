package app

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/ponder-agent/ponder/internal/runfiles"
	"github.com/ponder-agent/ponder/internal/sandbox"
)

// Outside plan mode, a command that may change files runs confined to its
// workspace (permission.Decision.Workspace). This file says what that
// workspace is: the project and the git directories it uses are
// writable, and so are caches of ponder's own for each project; inside
// them, the files that decide what runs later stay read-only, and so do
// git's config and hooks, ponder's own directory and the files Edit deny
// rules cover.

// workspacePolicy is the policy of one command, worked out as it starts:
// a read-only path that appears later is held from the next command on.
func (a *App) workspacePolicy() *sandbox.Workspace {
	return workspaceFor(a.root, a.cfg.Settings.Sandbox.Writable, a.cfg.ConfigDir, a.deniedPaths().Write)
}

// workspaceFor is the workspace policy of a project: extra are the
// directories sandbox.writable adds, editDenied the files Edit deny rules
// cover.
func workspaceFor(root string, extra []string, configDir string, editDenied []string) *sandbox.Workspace {
	w := &sandbox.Workspace{Writable: []string{root}}
	gitDirs := gitDirsOf(root)
	w.Writable = append(w.Writable, gitDirs...)
	others := worktreeRoots(append([]string{filepath.Join(root, ".git")}, gitDirs...))
	w.Writable = append(w.Writable, others...)
	for _, p := range extra {
		if p = expandHome(p); filepath.IsAbs(p) {
			w.Writable = append(w.Writable, p)
		}
	}
	caches, env := sandboxCaches(root)
	w.Writable = append(w.Writable, caches...)
	w.Env = env
	w.ReadOnly = readOnlyInWorkspace(root, gitDirs)
	for _, o := range others {
		w.ReadOnly = append(w.ReadOnly, readOnlyInWorkspace(o, gitDirsOf(o))...)
	}
	if configDir != "" {
		w.ReadOnly = append(w.ReadOnly, configDir)
	}
	w.ReadOnly = append(w.ReadOnly, homeReadOnly(root)...)
	w.ReadOnly = append(w.ReadOnly, editDenied...)
	return w
}

// readOnlyInWorkspace are the paths inside a project that decide what
// runs later, as accept-edits knows them, with git's directory narrowed
// to what runs (its config and hooks): the rest of it git must write to
// commit.
func readOnlyInWorkspace(root string, gitDirs []string) []string {
	var out []string
	// The table's rows at the root and what git's config names, whether
	// they exist yet or not (a missing one is set aside if a command
	// makes it).
	for _, p := range runfiles.Paths(root, "", "") {
		if strings.EqualFold(filepath.Base(p.Path), ".git") {
			continue
		}
		out = append(out, p.Path)
	}
	dirs := append([]string{filepath.Join(root, ".git")}, gitDirs...)
	for _, d := range slices.Clone(dirs) {
		// Submodules keep their git directories, with their own config
		// and hooks, below the superproject's.
		dirs = append(dirs, submoduleGitDirs(filepath.Join(d, "modules"), 0)...)
	}
	for _, d := range dirs {
		for _, f := range []string{"config", "config.worktree", "hooks", "info/attributes", "commondir", "gitdir"} {
			out = append(out, filepath.Join(d, filepath.FromSlash(f)))
		}
	}
	// A .git file (a worktree's or a submodule's) names the git
	// directory; changing it would point git at another one.
	if st, err := os.Lstat(filepath.Join(root, ".git")); err == nil && !st.IsDir() {
		out = append(out, filepath.Join(root, ".git"))
	}
	return out
}

// submoduleGitDirs are the git directories of submodules below a
// modules directory, nested ones included (to a depth of four).
func submoduleGitDirs(modules string, depth int) []string {
	if depth > 4 {
		return nil
	}
	ents, err := os.ReadDir(modules)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		d := filepath.Join(modules, e.Name())
		if _, err := os.Stat(filepath.Join(d, "HEAD")); err == nil {
			out = append(out, d)
			out = append(out, submoduleGitDirs(filepath.Join(d, "modules"), depth+1)...)
		} else {
			// A submodule path with slashes nests its directory.
			out = append(out, submoduleGitDirs(d, depth+1)...)
		}
	}
	return out
}

// homeDirs are the directories of a home that hold keys, credentials and
// programs run later, for a project that is the home directory itself or
// lies above it (a session started in ~ makes the home the project).
var homeDirs = []string{".ssh", ".gnupg", ".config", ".local", ".aws", ".docker", ".kube", ".pki", ".npm-global", "bin", ".cargo", ".rustup", "go"}

// homeReadOnly are homeDirs, when root is the home directory or above it.
func homeReadOnly(root string) []string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return nil
	}
	rel, err := filepath.Rel(root, home)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return nil
	}
	var out []string
	for _, d := range homeDirs {
		out = append(out, filepath.Join(home, d))
	}
	return out
}

// gitDirsOf are the git directories a project's git uses when they lie
// outside its own .git directory: a worktree's private directory and the
// common one it shares with the main worktree.
func gitDirsOf(root string) []string {
	data, err := os.ReadFile(filepath.Join(root, ".git"))
	if err != nil {
		return nil // a directory, or none
	}
	line, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return nil
	}
	dir := strings.TrimSpace(line)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	out := []string{filepath.Clean(dir)}
	if c, err := os.ReadFile(filepath.Join(dir, "commondir")); err == nil {
		common := strings.TrimSpace(string(c))
		if !filepath.IsAbs(common) {
			common = filepath.Join(dir, common)
		}
		out = append(out, filepath.Clean(common))
	}
	return out
}

// worktreeRoots are the roots of the other worktrees of the project's
// repository, read from the gitdir files of its worktrees directory.
func worktreeRoots(gitDirs []string) []string {
	var out []string
	for _, d := range gitDirs {
		ents, err := os.ReadDir(filepath.Join(d, "worktrees"))
		if err != nil {
			continue
		}
		for _, e := range ents {
			data, err := os.ReadFile(filepath.Join(d, "worktrees", e.Name(), "gitdir"))
			if err != nil {
				continue
			}
			if p := strings.TrimSpace(string(data)); filepath.IsAbs(p) {
				out = append(out, filepath.Dir(p))
			}
		}
	}
	return out
}

// expandHome turns a leading "~/" into the home directory.
func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}

// cacheMu keeps two commands from making the cache directories at once.
var cacheMu sync.Mutex

// sandboxCaches are the writable cache directories of confined commands
// and the settings that point the tools there. They are ponder's own,
// one set per project, never the user's: an entry planted in a cache the
// user's own builds trust (Go's build cache, the module cache) would run
// in every later build of every project. Confined commands still read the
// user's Go module cache, as a proxy to download modules from.
func sandboxCaches(root string) (dirs, env []string) {
	base, err := os.UserCacheDir()
	if err != nil {
		return nil, nil
	}
	sum := sha256.Sum256([]byte(root))
	base = filepath.Join(base, "ponder", "sandbox", hex.EncodeToString(sum[:8]))
	set := [][2]string{
		{"GOCACHE", "go-build"},
		{"GOMODCACHE", "go-mod"},
		{"npm_config_cache", "npm"},
		{"YARN_CACHE_FOLDER", "yarn"},
		{"npm_config_store_dir", "pnpm-store"},
		{"PIP_CACHE_DIR", "pip"},
		{"CARGO_HOME", "cargo"},
		{"GRADLE_USER_HOME", "gradle"},
		{"XDG_CACHE_HOME", "xdg"},
	}
	cacheMu.Lock()
	defer cacheMu.Unlock()
	for _, kv := range set {
		d := filepath.Join(base, kv[1])
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, nil
		}
		env = append(env, kv[0]+"="+d)
	}
	m2 := filepath.Join(base, "m2")
	if err := os.MkdirAll(m2, 0o700); err == nil {
		env = append(env, "MAVEN_ARGS=-Dmaven.repo.local="+m2)
	}
	if mc := userModCache(); mc != "" {
		proxy := os.Getenv("GOPROXY")
		if proxy == "" {
			proxy = "https://proxy.golang.org,direct"
		}
		env = append(env, "GOPROXY=file://"+filepath.ToSlash(filepath.Join(mc, "cache", "download"))+","+proxy)
	}
	return []string{base}, env
}

// userModCache is the user's Go module cache, or "".
func userModCache() string {
	if d := os.Getenv("GOMODCACHE"); d != "" {
		return d
	}
	if gp := os.Getenv("GOPATH"); gp != "" {
		return filepath.Join(filepath.SplitList(gp)[0], "pkg", "mod")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, "go", "pkg", "mod")
	}
	return ""
}
