package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Workspace is the policy of a command that may change the project: it
// writes beneath Writable (and its scratch directory) and nowhere else,
// and not even there to the paths in ReadOnly. Everything else on the
// file system is mounted read-only for it, so the kernel refuses a write
// outside with EROFS or EACCES, whatever the command is.
//
// On Linux the policy is a mount namespace of its own (the whole tree
// read-only, each writable root bound read-write over it, each ReadOnly
// path bound read-only over that, each directory between a writable root
// and a ReadOnly path pinned so that it cannot be renamed away), a PID
// namespace with a private /proc, and then the same Landlock and seccomp
// layers as every confined command. Landlock alone cannot take back a
// right below a directory it grants, which is why the read-only paths
// inside the project need the mounts.
//
// What goes into the lists is the caller's business: the package knows
// no file names.
type Workspace struct {
	// Writable are the directories the command may write beneath: the
	// project, the git directories it uses, caches of ponder's own.
	// Missing directories are left out.
	Writable []string
	// ReadOnly are paths inside the writable directories that stay
	// read-only: files and directories that decide what runs later.
	// Paths outside every writable directory are read-only anyway, and
	// paths that do not exist are left out (see MissingReadOnly).
	ReadOnly []string
	// Env are KEY=value settings for the command, applied after the
	// scratch directory's: where its caches go, say.
	Env []string
}

// mountOp is one step of a workspace's mount plan, done in order.
type mountOp struct {
	// Path is the absolute, link-free path bound onto itself.
	Path string `json:"path"`
	// ReadOnly makes the binding read-only; otherwise it is writable
	// (a writable root, or a pin).
	ReadOnly bool `json:"ro,omitempty"`
	// Pin says the binding is there only so that the directory cannot be
	// renamed or removed while the command runs.
	Pin bool `json:"pin,omitempty"`
}

// canonicalDir resolves p to an absolute path without links, or "" when
// it is not there.
func canonicalPath(p string) string {
	if p == "" || !filepath.IsAbs(p) {
		return ""
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return ""
	}
	return filepath.Clean(real)
}

// within reports whether p is dir or lies beneath it.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+"/") || dir == "/"
}

// writableRoots are the workspace's writable directories, resolved,
// existing, without one inside another, plus the scratch directory.
func (w Workspace) writableRoots(scratch string) []string {
	var roots []string
	for _, p := range append(slices.Clone(w.Writable), scratch) {
		c := canonicalPath(p)
		if c == "" {
			continue
		}
		if st, err := os.Stat(c); err != nil || !st.IsDir() {
			continue
		}
		roots = append(roots, c)
	}
	slices.Sort(roots)
	roots = slices.Compact(roots)
	var out []string
	for _, r := range roots {
		if len(out) > 0 && within(r, out[len(out)-1]) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// mountPlan is the order of bindings for the workspace: each writable
// root, then for each read-only path inside one the directories between
// the root and it (pinned), then the path itself read-only. Read-only
// paths are resolved; one that is a link is protected where it leads,
// and one outside every writable root needs nothing.
func (w Workspace) mountPlan(roots []string) []mountOp {
	var ops []mountOp
	for _, r := range roots {
		ops = append(ops, mountOp{Path: r})
	}
	pinned := map[string]bool{}
	var ro []string
	existing, _ := resolveReadOnly(w.ReadOnly)
	for _, p := range existing {
		if c := canonicalPath(p); c != "" {
			ro = append(ro, c)
		}
	}
	slices.Sort(ro)
	ro = slices.Compact(ro)
	done := map[string]bool{}
	for _, p := range ro {
		root := ""
		for _, r := range roots {
			if within(p, r) && len(r) > len(root) {
				root = r
			}
		}
		if root == "" || p == root || done[p] {
			continue
		}
		covered := false
		for q := range done {
			if within(p, q) {
				covered = true // inside a read-only binding already
			}
		}
		if covered {
			continue
		}
		var between []string
		for d := filepath.Dir(p); d != root && within(d, root); d = filepath.Dir(d) {
			between = append(between, d)
		}
		slices.Reverse(between)
		for _, d := range between {
			if !pinned[d] {
				pinned[d] = true
				ops = append(ops, mountOp{Path: d, Pin: true})
			}
		}
		done[p] = true
		ops = append(ops, mountOp{Path: p, ReadOnly: true})
	}
	return ops
}

// MissingReadOnly returns the read-only paths of w that do not exist in
// any case: no binding can hold them, so a command could create them
// (see Process.SetAside).
func (w Workspace) MissingReadOnly() []string {
	_, missing := resolveReadOnly(w.ReadOnly)
	return missing
}

// setAside moves what a command created at the missing read-only paths
// (in any case) out of the way: each becomes NAME.ponder-withheld-N next
// to where it was created, within the writable root it lies in, without
// following links out of it. It returns the paths created, as found.
func setAside(missing, roots []string) []string {
	if len(missing) == 0 {
		return nil
	}
	dirs := map[string][]os.DirEntry{}
	var out []string
	for _, p := range missing {
		for _, m := range foldMatches(p, dirs) {
			root := ""
			for _, r := range roots {
				if within(m, r) && m != r && len(r) > len(root) {
					root = r
				}
			}
			if root == "" {
				continue
			}
			rel, err := filepath.Rel(root, m)
			if err != nil {
				continue
			}
			r, err := os.OpenRoot(root)
			if err != nil {
				continue
			}
			for n := 1; n < 100; n++ {
				dst := rel + ".ponder-withheld-" + strconv.Itoa(n)
				if _, err := r.Lstat(dst); err == nil {
					continue
				}
				if r.Rename(rel, dst) == nil {
					out = append(out, m)
				}
				break
			}
			r.Close()
		}
	}
	return out
}

// workspaceEnv returns env with a confined command's scratch settings,
// for a command that writes its workspace: temporary files in the scratch
// directory, and then the workspace's own settings (its caches).
func workspaceEnv(env []string, scratch string, w *Workspace) []string {
	set := [][2]string{
		{"TMPDIR", scratch},
		{"TMP", scratch},
		{"TEMP", scratch},
		{"GOTMPDIR", scratch},
		{"GOTELEMETRY", "off"},
		{"LESSHISTFILE", "-"},
	}
	for _, kv := range w.Env {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			set = append(set, [2]string{k, v})
		}
	}
	return withSettings(env, set)
}
