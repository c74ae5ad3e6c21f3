//go:build linux && (amd64 || arm64)

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// denyABI is the kernel's Landlock ABI, found once (0 without Landlock).
var denyABI = sync.OnceValue(func() int {
	abi, _ := landlockABI()
	return abi
})

func denySupported() bool { return denyABI() >= 1 }

// denyRule is one grant of the deny layer.
type denyRule struct {
	path   string
	rights uint64
}

// openRule is a grant ready to add: an O_PATH descriptor of its path and
// the rights that apply to it.
type openRule struct {
	fd     int
	rights uint64
}

// denyLayer works out the grants of the deny layer for d now, in the
// caller's thread, and returns the work that applies them on the thread
// that starts the command.
func denyLayer(d Deny) (func() error, error) {
	abi := denyABI()
	readRight := uint64(unix.LANDLOCK_ACCESS_FS_READ_FILE)
	writeRights := uint64(unix.LANDLOCK_ACCESS_FS_WRITE_FILE)
	if abi >= 3 {
		writeRights |= fsTruncate
	}
	var handled uint64
	var entries []*complementEntry
	if len(d.Read) > 0 {
		handled |= readRight
		entries = append(entries, complementCached(d.Read, readRight))
	}
	if len(d.Write) > 0 {
		handled |= writeRights
		entries = append(entries, complementCached(d.Write, writeRights))
	}
	return func() error {
		defer func() {
			for _, e := range entries {
				e.release()
			}
		}()
		var rules []openRule
		for _, e := range entries {
			rules = append(rules, e.rules...)
		}
		return applyDeny(handled, rules)
	}, nil
}

// complementCache keeps the last complements worked out, each with the
// directories it listed and their modification times: while none has
// changed, the grants are the same.
var complementCache struct {
	mu      sync.Mutex
	entries []*complementEntry
}

// complementEntry is one complement, its descriptors held open while it
// is cached or in use.
type complementEntry struct {
	key     string
	rules   []openRule
	list    []denyRule // the grants by path, for a command's own helper
	dirs    map[string]time.Time
	refs    int  // layers being built from it; under complementCache.mu
	evicted bool // out of the cache: close once unused
}

// release ends one use, closing the descriptors of an evicted entry that
// nothing uses any more.
func (e *complementEntry) release() {
	complementCache.mu.Lock()
	defer complementCache.mu.Unlock()
	e.refs--
	e.closeIfUnused()
}

func (e *complementEntry) closeIfUnused() {
	if e.evicted && e.refs == 0 {
		for _, r := range e.rules {
			unix.Close(r.fd)
		}
		e.rules = nil
	}
}

// evict takes e out of the cache.
func (e *complementEntry) evict() {
	e.evicted = true
	e.closeIfUnused()
}

// openRules opens the paths of rules, leaving out those that are gone or
// are symbolic links (a grant through a link would land on its target).
func openRules(rules []denyRule) []openRule {
	out := make([]openRule, 0, len(rules))
	for _, r := range rules {
		fd, err := unix.Open(r.path, unix.O_PATH|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
		if err != nil {
			continue
		}
		var st unix.Stat_t
		if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT == unix.S_IFLNK {
			unix.Close(fd)
			continue
		}
		rights := r.rights
		if st.Mode&unix.S_IFMT != unix.S_IFDIR {
			rights &= fileRights
		}
		out = append(out, openRule{fd: fd, rights: rights})
	}
	return out
}

// maxComplements bounds the complements kept.
const maxComplements = 8

// complementCached is complement, opened, from the cache while it is
// current. The caller releases the entry once its layer is built.
func complementCached(denied []string, rights uint64) *complementEntry {
	key := fmt.Sprintf("%x\x00%s", rights, strings.Join(denied, "\x00"))
	complementCache.mu.Lock()
	defer complementCache.mu.Unlock()
	for i, e := range complementCache.entries {
		if e.key == key {
			if unchanged(e.dirs) {
				e.refs++
				return e
			}
			complementCache.entries = slices.Delete(complementCache.entries, i, i+1)
			e.evict()
			break
		}
	}
	dirs := map[string]time.Time{}
	list := complement(denied, rights, dirs)
	e := &complementEntry{key: key, rules: openRules(list), list: list, dirs: dirs, refs: 1}
	complementCache.entries = append(complementCache.entries, e)
	if len(complementCache.entries) > maxComplements {
		complementCache.entries[0].evict()
		complementCache.entries = complementCache.entries[1:]
	}
	return e
}

// unchanged reports whether every directory still has its time.
func unchanged(dirs map[string]time.Time) bool {
	for d, t := range dirs {
		var st unix.Stat_t
		if unix.Stat(d, &st) != nil || !time.Unix(st.Mtim.Unix()).Equal(t) {
			return false
		}
	}
	return true
}

// noteDir records a directory's modification time in dirs.
func noteDir(dirs map[string]time.Time, d string) {
	var st unix.Stat_t
	if dirs != nil && unix.Stat(d, &st) == nil {
		dirs[d] = time.Unix(st.Mtim.Unix())
	}
}

// applyDeny makes and enforces the layer on the calling thread. Landlock
// needs no_new_privs unless the thread may administer the system; a
// thread that may keeps the ability to gain privileges (sudo).
func applyDeny(handled uint64, rules []openRule) error {
	attr := unix.LandlockRulesetAttr{Handled_access_fs: handled}
	fd, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if e != 0 {
		return fmt.Errorf("landlock_create_ruleset for the deny layer: %w", e)
	}
	ruleset := int(fd)
	defer unix.Close(ruleset)
	for _, r := range rules {
		if err := addRule(ruleset, r.fd, r.rights); err != nil {
			return fmt.Errorf("landlock rule for the deny layer: %w", err)
		}
	}
	if !mayAdminister() {
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			return fmt.Errorf("no_new_privs: %w", err)
		}
	}
	if _, _, e := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(ruleset), 0, 0); e != 0 {
		return fmt.Errorf("landlock_restrict_self for the deny layer: %w", e)
	}
	return nil
}

// mayAdminister reports whether the calling thread has CAP_SYS_ADMIN.
func mayAdminister() bool {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return false
	}
	return data[unix.CAP_SYS_ADMIN/32].Effective&(1<<(unix.CAP_SYS_ADMIN%32)) != 0
}

// maxLinkWalk bounds the files looked at below one denied directory for
// other names of them.
const maxLinkWalk = 100_000

// linkedFiles adds the identities of the files at or below p that have
// more than one name to ids.
func linkedFiles(p string, ids map[[2]uint64]bool, dirs map[string]time.Time) {
	n := 0
	_ = filepath.WalkDir(p, func(q string, de os.DirEntry, err error) error {
		if n++; err != nil || n > maxLinkWalk {
			return filepath.SkipAll
		}
		if de.IsDir() {
			noteDir(dirs, q)
		}
		if de.Type().IsRegular() {
			var st unix.Stat_t
			if unix.Lstat(q, &st) == nil && st.Nlink > 1 {
				ids[[2]uint64{uint64(st.Dev), st.Ino}] = true
			}
		}
		return nil
	})
}

// complement returns the grants of rights that cover everything but the
// denied paths: every entry of every directory on the way from / to a
// denied path, other than that way itself and the denied paths, gets the
// rights beneath it. Symbolic links get nothing (what they point to is
// judged where it is), and neither does another name (a hard link) of a
// denied file.
func complement(denied []string, rights uint64, dirs map[string]time.Time) []denyRule {
	type node struct {
		denied   bool
		children map[string]*node
	}
	root := &node{children: map[string]*node{}}
	skip := map[[2]uint64]bool{}
	for _, p := range denied {
		p = filepath.Clean(p)
		if !filepath.IsAbs(p) {
			continue
		}
		linkedFiles(p, skip, dirs)
		n := root
		for _, el := range strings.Split(strings.Trim(p, "/"), "/") {
			if el == "" {
				continue
			}
			if n.children == nil {
				n.children = map[string]*node{}
			}
			c, ok := n.children[el]
			if !ok {
				c = &node{}
				n.children[el] = c
			}
			n = c
		}
		n.denied = true
	}
	if root.denied || len(root.children) == 0 {
		return nil
	}
	var out []denyRule
	var visit func(dir string, n *node)
	visit = func(dir string, n *node) {
		noteDir(dirs, dir)
		ents, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range ents {
			p := filepath.Join(dir, e.Name())
			if c, ok := n.children[e.Name()]; ok {
				if !c.denied {
					visit(p, c)
				}
				continue
			}
			if e.Type()&os.ModeSymlink != 0 {
				continue
			}
			if !e.IsDir() {
				var st unix.Stat_t
				if unix.Lstat(p, &st) == nil && st.Nlink > 1 && skip[[2]uint64{uint64(st.Dev), st.Ino}] {
					continue
				}
			}
			out = append(out, denyRule{path: p, rights: rights})
		}
	}
	visit("/", root)
	return slices.Clip(out)
}

// denyPlan is the deny layer for d as a ruleset's handled rights and its
// grants by path, for a process that builds the layer itself (the
// helper of a workspace command, which must mount before Landlock binds
// it). Nil when there is nothing to deny.
func denyPlan(d Deny) *ruleset {
	if d.empty() || !denySupported() {
		return nil
	}
	readRight := uint64(unix.LANDLOCK_ACCESS_FS_READ_FILE)
	writeRights := uint64(unix.LANDLOCK_ACCESS_FS_WRITE_FILE)
	if denyABI() >= 3 {
		writeRights |= fsTruncate
	}
	plan := &ruleset{}
	add := func(paths []string, rights uint64) {
		plan.FS |= rights
		e := complementCached(paths, rights)
		for _, r := range e.list {
			plan.Rules = append(plan.Rules, pathRule{Path: r.path, Rights: r.rights, NoFollow: true})
		}
		e.release()
	}
	if len(d.Read) > 0 {
		add(d.Read, readRight)
	}
	if len(d.Write) > 0 {
		add(d.Write, writeRights)
	}
	return plan
}
