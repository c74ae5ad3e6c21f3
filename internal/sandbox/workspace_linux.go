//go:build linux && (amd64 || arm64)

package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A workspace command is started through ponder's own binary: the child
// is created in new mount and PID namespaces (and, for a user without
// CAP_SYS_ADMIN, a user namespace of its own that maps only that user),
// reads its plan from a pipe, binds what the plan says, mounts a private
// /proc, builds its Landlock layers, loads the seccomp filter, drops every
// capability and then runs the command in its place. The mounts must come
// first: Landlock refuses mount calls to a thread it binds, and the
// seccomp filter refuses them to everything.

// helperArg0 is the program name a workspace helper is started under; a
// process started with it and a descriptor number runs the helper.
const helperArg0 = "ponder-sandbox-init"

// mappableMu serialises the moments ponder is dumpable (startMappable).
var mappableMu sync.Mutex

// startMappable runs start, which starts cmd. A helper that gets a user
// namespace of its own (a user without CAP_SYS_ADMIN) has its ID maps
// written by ponder between clone and exec; the kernel lets ponder write
// them only while the child, which inherits ponder's non-dumpable state,
// is dumpable. So ponder is dumpable for the time of that start alone, one
// start at a time, and non-dumpable again before anything else of its own
// starts. The commands ponder runs cannot use the moment: confined ones
// see no process of ponder's and may not trace.
func startMappable(cmd *exec.Cmd, start func() error) error {
	if cmd.SysProcAttr == nil || cmd.SysProcAttr.Cloneflags&unix.CLONE_NEWUSER == 0 {
		return start()
	}
	mappableMu.Lock()
	defer mappableMu.Unlock()
	was, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
	if err != nil || was != 0 {
		return start()
	}
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0); err != nil {
		return start()
	}
	defer unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	return start()
}

// helperPath is the program the helper runs as: ponder itself, by the
// path its executable has on disk. (A test that measures the cost of the
// real binary points it there.) Not /proc/self/exe: ponder makes itself
// non-dumpable, and a child in a user namespace of its own then may not
// execute its parent's /proc/self/exe, so a user without CAP_SYS_ADMIN
// would get no workspace policy at all.
var helperPath = ""

// helperProgram is the path to start the helper from.
func helperProgram() string {
	if helperPath != "" {
		return helperPath
	}
	return selfPath()
}

// selfPath is the path of ponder's executable, read once; /proc/self/exe
// where it cannot be read.
var selfPath = sync.OnceValue(func() string {
	if p, err := os.Executable(); err == nil {
		return p
	}
	return "/proc/self/exe"
})

// ruleset is a Landlock ruleset described by paths.
type ruleset struct {
	FS     uint64     `json:"fs"`
	Net    uint64     `json:"net,omitempty"`
	Scoped uint64     `json:"scoped,omitempty"`
	Rules  []pathRule `json:"rules"`
	// Ports and Lookup are the network grants (see Confinement).
	Ports  []uint16 `json:"ports,omitempty"`
	Lookup bool     `json:"lookup,omitempty"`
}

// pathRule grants rights beneath a path.
type pathRule struct {
	Path   string `json:"path"`
	Rights uint64 `json:"rights"`
	// NoFollow leaves the path out when it is a symbolic link.
	NoFollow bool `json:"nofollow,omitempty"`
}

// helperPlan is everything the helper does before the command runs.
type helperPlan struct {
	Mounts []mountOp `json:"mounts"`
	// Writable are the writable roots, made writable again after the
	// whole tree was made read-only.
	Writable []string `json:"writable"`
	Dir      string   `json:"dir"`
	Proc     bool     `json:"proc"`
	Landlock ruleset  `json:"landlock"`
	Deny     *ruleset `json:"deny,omitempty"`
	Filter   []byte   `json:"filter"`
	Path     string   `json:"path"`
	Args     []string `json:"args"`
}

// workspaceProbe reports, once, whether this system can start a
// workspace command, and why not.
var workspaceProbe = sync.OnceValue(func() error {
	dir, err := os.MkdirTemp("", "ponder-sandbox-probe-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o700); err != nil {
		return err
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		return errors.New("no sh to probe with")
	}
	plan := helperPlan{Writable: []string{dir}, Dir: dir, Proc: true,
		Mounts: []mountOp{{Path: dir}, {Path: ro, ReadOnly: true}},
		Path:   sh, Args: []string{"sh", "-c", "(: > ro/x) 2>/dev/null || : > ok"}}
	cmd := exec.Command(sh)
	cmd.Dir = dir
	if err := setHelper(cmd, plan); err != nil {
		return err
	}
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err = startMappable(cmd, cmd.Start)
	if err == nil {
		err = cmd.Wait()
	}
	out := buf.Bytes()
	if err != nil {
		return fmt.Errorf("mount and PID namespaces do not work here: %v %s", err, bytesTrim(out))
	}
	if _, err := os.Stat(filepath.Join(dir, "ok")); err != nil {
		return errors.New("a read-only binding inside a writable directory did not hold")
	}
	return nil
})

func bytesTrim(b []byte) string {
	s := string(b)
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == ' ') {
		s = s[:len(s)-1]
	}
	return s
}

// setHelper rewrites cmd to start the helper, which runs plan. The
// helper reads the plan from a pipe that is closed before the command
// runs.
func setHelper(cmd *exec.Cmd, plan helperPlan) error {
	data, err := json.Marshal(plan)
	if err != nil {
		return err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	// Writing from a goroutine: a large deny layer may exceed the pipe.
	go func() {
		_, _ = w.Write(data)
		w.Close()
	}()
	fd := 3 + len(cmd.ExtraFiles)
	cmd.ExtraFiles = append(cmd.ExtraFiles, r)
	cmd.Path = helperProgram()
	cmd.Args = []string{helperArg0, itoa(fd)}
	attr := cmd.SysProcAttr
	if attr == nil {
		attr = &syscall.SysProcAttr{}
	}
	attr.Cloneflags |= unix.CLONE_NEWNS | unix.CLONE_NEWPID
	if !mayAdminister() {
		uid, gid := os.Getuid(), os.Getgid()
		attr.Cloneflags |= unix.CLONE_NEWUSER
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
		attr.GidMappingsEnableSetgroups = false
		// The helper is not root in its namespace: it needs to keep
		// CAP_SYS_ADMIN across its own start to mount; it drops it and
		// every other before the command runs.
		attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN}
	}
	cmd.SysProcAttr = attr
	return nil
}

// workspaceSupported reports whether s can confine a command to a
// workspace.
func (s *Sandbox) workspaceSupported() error {
	if _, ok := s.impl.(*landlock); !ok {
		return fmt.Errorf("the workspace policy needs Landlock (the sandbox here is %s)", s.kind)
	}
	return workspaceProbe()
}

// prepareWorkspace rewrites cmd to run confined to w.
func (s *Sandbox) prepareWorkspace(cmd *exec.Cmd, scratch string, c Confinement, deny Deny) error {
	l, ok := s.impl.(*landlock)
	if !ok {
		return fmt.Errorf("the workspace policy needs Landlock (the sandbox here is %s)", s.kind)
	}
	w := *c.Workspace
	roots := w.writableRoots(scratch)
	plan := helperPlan{Mounts: w.mountPlan(roots), Writable: roots, Proc: true, Path: cmd.Path, Args: cmd.Args,
		Filter: filterBytes(l.wsFilters.pick(c))}
	plan.Dir = cmd.Dir
	if plan.Dir == "" {
		plan.Dir, _ = os.Getwd()
	}
	plan.Landlock = ruleset{FS: l.rights.fs, Net: l.rights.net, Scoped: l.rights.scoped, Ports: c.Ports, Lookup: c.Lookup}
	for _, p := range l.roots {
		plan.Landlock.Rules = append(plan.Landlock.Rules, pathRule{Path: p, Rights: readRights & l.rights.fs})
	}
	plan.Landlock.Rules = append(plan.Landlock.Rules, pathRule{Path: "/dev/null", Rights: fileRights & l.rights.fs})
	for _, r := range roots {
		plan.Landlock.Rules = append(plan.Landlock.Rules, pathRule{Path: r, Rights: l.rights.fs})
	}
	plan.Deny = denyPlan(deny)
	return setHelper(cmd, plan)
}

func init() {
	if len(os.Args) == 2 && os.Args[0] == helperArg0 {
		err := runWorkspaceHelper(os.Args[1])
		fmt.Fprintf(os.Stderr, "ponder sandbox: %v\n", err)
		os.Exit(126)
	}
	restartWithoutPtrace()
}

// runWorkspaceHelper is the helper's work; it returns only on failure.
func runWorkspaceHelper(fdArg string) error {
	// Every step binds the calling thread, and the command must start
	// from it.
	runtime.LockOSThread()
	fd := 0
	for _, ch := range fdArg {
		if ch < '0' || ch > '9' {
			return errors.New("bad plan descriptor")
		}
		fd = fd*10 + int(ch-'0')
	}
	f := os.NewFile(uintptr(fd), "plan")
	var plan helperPlan
	err := json.NewDecoder(f).Decode(&plan)
	f.Close()
	if err != nil {
		return fmt.Errorf("reading the plan: %w", err)
	}
	if err := mountWorkspace(plan); err != nil {
		return err
	}
	if err := os.Chdir(plan.Dir); err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if err := restrictBy(plan.Landlock); err != nil {
		return err
	}
	if plan.Deny != nil {
		if err := restrictBy(*plan.Deny); err != nil {
			return fmt.Errorf("deny layer: %w", err)
		}
	}
	if len(plan.Filter) > 0 {
		if err := installFilter(filterFromBytes(plan.Filter)); err != nil {
			return fmt.Errorf("seccomp: %w", err)
		}
	}
	if err := dropCapabilities(); err != nil {
		return err
	}
	return syscall.Exec(plan.Path, plan.Args, os.Environ())
}

// mountWorkspace lays out the helper's mount namespace: nothing it does
// reaches the namespace ponder runs in; the whole tree read-only; each
// writable root writable; pins and read-only paths over them; a /proc of
// the new PID namespace.
func mountWorkspace(plan helperPlan) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making mounts private: %w", err)
	}
	writable := map[string]bool{}
	for _, r := range plan.Writable {
		writable[r] = true
	}
	// Writable roots are bound first, so that making the tree read-only
	// reaches them too, and then made writable alone.
	for _, m := range plan.Mounts {
		if writable[m.Path] {
			if err := bindSelf(m.Path); err != nil {
				return err
			}
		}
	}
	ro := &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
	if err := unix.MountSetattr(unix.AT_FDCWD, "/", unix.AT_RECURSIVE, ro); err != nil {
		return fmt.Errorf("making the file system read-only: %w", err)
	}
	rw := &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}
	for _, r := range plan.Writable {
		if err := unix.MountSetattr(unix.AT_FDCWD, r, 0, rw); err != nil {
			return fmt.Errorf("making %s writable: %w", r, err)
		}
	}
	for _, m := range plan.Mounts {
		if writable[m.Path] {
			continue
		}
		if err := bindSelf(m.Path); err != nil {
			if errors.Is(err, unix.ENOENT) {
				continue // gone since the plan was made: nothing to hold
			}
			return err
		}
		if m.ReadOnly {
			if err := unix.MountSetattr(unix.AT_FDCWD, m.Path, 0, ro); err != nil {
				return fmt.Errorf("making %s read-only: %w", m.Path, err)
			}
		}
	}
	if plan.Proc {
		if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
			return fmt.Errorf("mounting a private /proc: %w", err)
		}
	}
	return nil
}

// bindSelf binds path onto itself, not following a link at its end.
func bindSelf(path string) error {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("binding %s: %w", path, err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fmt.Errorf("binding %s: %w", path, err)
	}
	if st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return fmt.Errorf("binding %s: it became a symbolic link", path)
	}
	self := "/proc/self/fd/" + itoa(fd)
	if err := unix.Mount(self, path, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("binding %s: %w", path, err)
	}
	return nil
}

// restrictBy builds and enforces a Landlock ruleset on the calling
// thread.
func restrictBy(rs ruleset) error {
	if rs.FS == 0 && rs.Net == 0 && rs.Scoped == 0 {
		return nil // nothing handled (the probe)
	}
	attr := unix.LandlockRulesetAttr{Handled_access_fs: rs.FS, Handled_access_net: rs.Net, Scoped: rs.Scoped}
	r1, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if e != 0 {
		return fmt.Errorf("landlock_create_ruleset: %w", e)
	}
	fd := int(r1)
	defer unix.Close(fd)
	for _, r := range rs.Rules {
		if err := addHelperRule(fd, r); err != nil && !errors.Is(err, unix.ENOENT) {
			return fmt.Errorf("landlock rule for %s: %w", r.Path, err)
		}
	}
	if len(rs.Ports) > 0 {
		if err := addPortRules(fd, rs.Net, rs.Ports, rs.Lookup); err != nil {
			return err
		}
	}
	if _, _, e := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(fd), 0, 0); e != 0 {
		return fmt.Errorf("landlock_restrict_self: %w", e)
	}
	return nil
}

// addHelperRule grants r's rights beneath its path (only those that
// apply to one file when it is not a directory). A rule marked NoFollow
// is left out when its path is a symbolic link.
func addHelperRule(ruleset int, r pathRule) error {
	if !r.NoFollow {
		return addPathRule(ruleset, r.Path, r.Rights)
	}
	fd, err := unix.Open(r.Path, unix.O_PATH|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	rights := r.Rights
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFLNK:
		return nil
	case unix.S_IFDIR:
	default:
		rights &= fileRights
	}
	return addRule(ruleset, fd, rights)
}

// filterFromBytes is filterBytes undone.
func filterFromBytes(b []byte) []unix.SockFilter {
	n := len(b) / int(unsafe.Sizeof(unix.SockFilter{}))
	out := make([]unix.SockFilter, n)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), n*int(unsafe.Sizeof(unix.SockFilter{}))), b)
	return out
}
