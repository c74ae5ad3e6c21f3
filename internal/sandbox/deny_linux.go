//go:build linux && (amd64 || arm64)

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
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
	var rules []denyRule
	if len(d.Read) > 0 {
		handled |= readRight
		rules = append(rules, complement(d.Read, readRight)...)
	}
	if len(d.Write) > 0 {
		handled |= writeRights
		rules = append(rules, complement(d.Write, writeRights)...)
	}
	return func() error { return applyDeny(handled, rules) }, nil
}

// applyDeny makes and enforces the layer on the calling thread. Landlock
// needs no_new_privs unless the thread may administer the system; a
// thread that may keeps the ability to gain privileges (sudo).
func applyDeny(handled uint64, rules []denyRule) error {
	attr := unix.LandlockRulesetAttr{Handled_access_fs: handled}
	fd, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if e != 0 {
		return fmt.Errorf("landlock_create_ruleset for the deny layer: %w", e)
	}
	ruleset := int(fd)
	defer unix.Close(ruleset)
	for _, r := range rules {
		if err := addDenyRule(ruleset, r); err != nil && !errors.Is(err, unix.ENOENT) && !errors.Is(err, unix.ELOOP) && !errors.Is(err, unix.EACCES) {
			return fmt.Errorf("landlock rule for %s: %w", r.path, err)
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

// addDenyRule grants r without following a symbolic link: a grant given
// through a link would land on what it points to.
func addDenyRule(ruleset int, r denyRule) error {
	fd, err := unix.Open(r.path, unix.O_PATH|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return addRule(ruleset, fd, r.rights)
	case unix.S_IFLNK:
		return nil
	}
	return addRule(ruleset, fd, r.rights&fileRights)
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
func linkedFiles(p string, ids map[[2]uint64]bool) {
	n := 0
	_ = filepath.WalkDir(p, func(q string, de os.DirEntry, err error) error {
		if n++; err != nil || n > maxLinkWalk {
			return filepath.SkipAll
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
func complement(denied []string, rights uint64) []denyRule {
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
		linkedFiles(p, skip)
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
