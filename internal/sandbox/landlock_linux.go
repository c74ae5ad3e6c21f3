//go:build linux && (amd64 || arm64)

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock access rights, by the ABI version that introduced them. A
// ruleset handles every right its ABI knows, so nothing is left to plain
// Unix permissions; the rules then grant rights back where they are due.
const (
	fsABI1 = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
		unix.LANDLOCK_ACCESS_FS_READ_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_FILE |
		unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_DIR | unix.LANDLOCK_ACCESS_FS_MAKE_REG |
		unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_SYM
	fsRefer       = unix.LANDLOCK_ACCESS_FS_REFER        // ABI 2: links and renames across directories
	fsTruncate    = unix.LANDLOCK_ACCESS_FS_TRUNCATE     // ABI 3
	fsIoctlDev    = unix.LANDLOCK_ACCESS_FS_IOCTL_DEV    // ABI 5: ioctl on devices
	fsResolveUnix = unix.LANDLOCK_ACCESS_FS_RESOLVE_UNIX // ABI 9: connecting to Unix sockets by path

	netTCP = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP      // ABI 4
	netUDP = unix.LANDLOCK_ACCESS_NET_BIND_UDP | unix.LANDLOCK_ACCESS_NET_CONNECT_SEND_UDP // ABI 10

	// readRights are what a reader needs: read files and directories,
	// run programs.
	readRights = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	// fileRights are the rights that apply to a single file.
	fileRights = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
		fsTruncate | fsIoctlDev
)

// erratumSignals is the Landlock erratum whose fix lets threads of one
// process signal each other under signal scoping; without it ponder's own
// threads could not interrupt the thread that starts a command.
const erratumSignals = 0x2

// landlockABI returns the kernel's Landlock ABI version and fixed errata,
// or 0 when Landlock is missing or turned off.
func landlockABI() (abi, errata int) {
	v, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if e != 0 {
		return 0, 0
	}
	er, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_ERRATA)
	if e != 0 {
		er = 0
	}
	return int(v), int(er)
}

// landlockRights are the rights a ruleset handles for an ABI.
type landlockRights struct {
	fs, net, scoped uint64
}

func rightsFor(abi, errata int, network bool) landlockRights {
	r := landlockRights{fs: fsABI1}
	if abi >= 2 {
		r.fs |= fsRefer
	}
	if abi >= 3 {
		r.fs |= fsTruncate
	}
	if abi >= 5 {
		r.fs |= fsIoctlDev
	}
	if abi >= 9 && !network {
		r.fs |= fsResolveUnix
	}
	if abi >= 4 && !network {
		r.net |= netTCP
	}
	if abi >= 10 && !network {
		r.net |= netUDP
	}
	if abi >= 6 {
		r.scoped = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
		if errata&erratumSignals != 0 {
			r.scoped |= unix.LANDLOCK_SCOPE_SIGNAL
		}
	}
	return r
}

// readRoots are the paths a confined command may read and run beneath:
// every entry of the root directory but /dev, and of /dev only devices a
// reader needs. Terminals, input devices and disks stay closed, so a
// command cannot read keystrokes meant for ponder.
func readRoots() []string {
	var out []string
	entries, err := os.ReadDir("/")
	if err != nil {
		return []string{"/"}
	}
	for _, e := range entries {
		p := "/" + e.Name()
		// A link from the root into /dev would open what /dev keeps shut.
		if real, err := filepath.EvalSymlinks(p); err != nil || real == "/dev" || strings.HasPrefix(real, "/dev/") {
			continue
		}
		out = append(out, p)
	}
	// Not /dev/fd or /dev/stdin and the like: they are links into
	// /proc/self, which here would be ponder's own descriptors (its
	// terminal among them). A command reaches its own through /proc.
	for _, d := range []string{"null", "zero", "full", "random", "urandom", "shm"} {
		out = append(out, "/dev/"+d)
	}
	return out
}

// landlock confines commands with Landlock and seccomp on the starting
// thread, and drops its capabilities.
type landlock struct {
	abi     int
	rights  landlockRights
	filters filterSet
	// wsFilters are the filters of commands confined to a workspace.
	wsFilters filterSet
	// roots are the paths to grant reading, found once.
	roots []string
	// pidns says each command gets a PID namespace of its own.
	pidns bool
}

func newLandlock(abi, errata int, opts Options) (*landlock, error) {
	rights := rightsFor(abi, errata, opts.Network)
	filters, err := buildFilterSet(filterOptions{network: opts.Network, ponder: os.Getpid(), abi: abi,
		scopedSignals: rights.scoped&unix.LANDLOCK_SCOPE_SIGNAL != 0})
	if err != nil {
		return nil, err
	}
	ws, err := buildFilterSet(filterOptions{network: opts.Network, ponder: os.Getpid(), abi: abi,
		scopedSignals: rights.scoped&unix.LANDLOCK_SCOPE_SIGNAL != 0, workspace: true})
	if err != nil {
		return nil, err
	}
	return &landlock{abi: abi, rights: rights, filters: filters, wsFilters: ws, roots: readRoots(), pidns: pidNamespaceWorks()}, nil
}

// addPathRule grants rights beneath path (only the rights that apply to a
// single file when path is not a directory).
func addPathRule(ruleset int, path string, rights uint64) error {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		rights &= fileRights
	}
	return addRule(ruleset, fd, rights)
}

func (l *landlock) prepare(_ *exec.Cmd, scratch string, c Confinement) (func() error, func(), error) {
	return func() error { return l.restrict(scratch, c) }, nil, nil
}

// restrict confines the calling thread: a PID namespace for its next
// child where ponder may make one, then Landlock (it needs
// no_new_privs), then the seccomp filter, then capabilities.
func (l *landlock) restrict(scratch string, c Confinement) error {
	if l.pidns {
		if err := enterPIDNamespace(); err != nil {
			return fmt.Errorf("a PID namespace for the command: %w", err)
		}
	}
	attr := unix.LandlockRulesetAttr{Handled_access_fs: l.rights.fs, Handled_access_net: l.rights.net, Scoped: l.rights.scoped}
	fd, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if e != 0 {
		return fmt.Errorf("landlock_create_ruleset: %w", e)
	}
	ruleset := int(fd)
	defer unix.Close(ruleset)
	for _, p := range l.roots {
		if err := addPathRule(ruleset, p, readRights&l.rights.fs); err != nil && !errors.Is(err, unix.ENOENT) {
			return fmt.Errorf("landlock rule for %s: %w", p, err)
		}
	}
	// /dev/null is the one file outside the scratch directory a command
	// may write.
	if err := addPathRule(ruleset, "/dev/null", fileRights&l.rights.fs); err != nil {
		return fmt.Errorf("landlock rule for /dev/null: %w", err)
	}
	if err := addPathRule(ruleset, filepath.Clean(scratch), l.rights.fs); err != nil {
		return fmt.Errorf("landlock rule for the scratch directory: %w", err)
	}
	filter := l.filters.pick(c)
	if len(c.Ports) > 0 {
		if err := addPortRules(ruleset, l.rights.net, c.Ports, c.Lookup); err != nil {
			return err
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if _, _, e := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(ruleset), 0, 0); e != 0 {
		return fmt.Errorf("landlock_restrict_self: %w", e)
	}
	if err := installFilter(filter); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	return dropCapabilities()
}

// netPortAttr is the kernel's struct landlock_net_port_attr, which
// golang.org/x/sys does not define.
type netPortAttr struct {
	allowedAccess uint64
	port          uint64
}

// ruleNetPort is LANDLOCK_RULE_NET_PORT.
const ruleNetPort = 2

// addPortRules lets the command connect to the given TCP ports, and,
// when it must look names up, send to port 53 where Landlock also handles
// UDP.
func addPortRules(ruleset int, handled uint64, ports []uint16, lookup bool) error {
	add := func(port uint16, rights uint64) error {
		if rights &= handled; rights == 0 {
			return nil
		}
		attr := netPortAttr{allowedAccess: rights, port: uint64(port)}
		_, _, e := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), ruleNetPort,
			uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
		if e != 0 {
			return fmt.Errorf("landlock rule for port %d: %w", port, e)
		}
		return nil
	}
	for _, p := range ports {
		if err := add(p, unix.LANDLOCK_ACCESS_NET_CONNECT_TCP); err != nil {
			return err
		}
	}
	if !lookup {
		return nil
	}
	return add(53, unix.LANDLOCK_ACCESS_NET_CONNECT_SEND_UDP)
}

func addRule(ruleset, fd int, rights uint64) error {
	if rights == 0 {
		return nil
	}
	attr := unix.LandlockPathBeneathAttr{Allowed_access: rights, Parent_fd: int32(fd)}
	_, _, e := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH,
		uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

func (l *landlock) restricts() []string {
	out := []string{
		"writes: only a private scratch directory (removed after each command) and /dev/null",
		"reads: everything but terminals and other devices under /dev",
	}
	if l.rights.fs&fsTruncate == 0 {
		out = append(out, "truncation by path: refused by seccomp (Landlock ABI below 3)")
	}
	switch {
	case l.rights.net&netTCP != 0 && l.rights.net&netUDP != 0:
		out = append(out, "network: no TCP or UDP (Landlock), no IP or Unix sockets (seccomp)")
	case l.rights.net&netTCP != 0:
		out = append(out, "network: no TCP (Landlock), no IP or Unix sockets (seccomp)")
	case l.rights.net == 0 && l.abi >= 4:
		out = append(out, "network: allowed (sandbox.network)")
	default:
		out = append(out, "network: no IP or Unix sockets (seccomp)")
	}
	if l.rights.scoped&unix.LANDLOCK_SCOPE_SIGNAL != 0 {
		out = append(out, "signals: only to processes inside the sandbox")
	} else {
		out = append(out, "signals: not to ponder (seccomp); Landlock signal scoping unavailable")
	}
	if l.rights.scoped&unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET != 0 {
		out = append(out, "abstract Unix sockets: only inside the sandbox")
	}
	return append(out,
		pidNamespaceNote(l.pidns),
		seccompSummary,
		"privileges: no_new_privs; every capability dropped",
	)
}
