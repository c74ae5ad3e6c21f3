//go:build linux && (amd64 || arm64)

package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/ponder-agent/ponder/internal/testenv"
)

// helperEnv makes the test binary run one system call and report its
// result, so the tests can check exact errors inside the sandbox.
const helperEnv = "PONDER_SANDBOX_TEST_HELPER"

func TestMain(m *testing.M) {
	if action := os.Getenv(helperEnv); action != "" {
		fmt.Println(helper(action, os.Args[len(os.Args)-1]))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// helper runs one probe and returns "ok" or the error.
func helper(action, arg string) string {
	res := func(err error) string {
		var e syscall.Errno
		switch {
		case err == nil:
			return "ok"
		case errors.As(err, &e):
			return e.Error()
		}
		return err.Error()
	}
	errno := func(_, _ uintptr, e syscall.Errno) error {
		if e != 0 {
			return e
		}
		return nil
	}
	n, _ := strconv.Atoi(arg)
	switch action {
	case "write":
		return res(os.WriteFile(arg, []byte("written by a confined command"), 0o644))
	case "setxattr":
		return res(unix.Setxattr(arg, "user.ponder", []byte("x"), 0))
	case "chown":
		return res(os.Chown(arg, 1, 1))
	case "setrlimit-core-high-bits":
		lim := unix.Rlimit{Cur: unix.RLIM_INFINITY, Max: unix.RLIM_INFINITY}
		return res(errno(unix.RawSyscall(unix.SYS_SETRLIMIT, unix.RLIMIT_CORE|1<<32, uintptr(unsafe.Pointer(&lim)), 0)))
	case "prlimit-other":
		lim := unix.Rlimit{Cur: 1, Max: 1}
		return res(unix.Prlimit(n, unix.RLIMIT_NOFILE, &lim, nil))
	case "tiocsti-high-bits":
		c := byte('x')
		return res(errno(unix.RawSyscall(unix.SYS_IOCTL, 0, unix.TIOCSTI|1<<40, uintptr(unsafe.Pointer(&c)))))
	case "socket-inet":
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
		unix.Close(fd)
		return res(err)
	case "socket-unix":
		fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM, 0)
		unix.Close(fd)
		return res(err)
	case "socket-packet":
		fd, err := unix.Socket(unix.AF_PACKET, unix.SOCK_RAW, 0)
		unix.Close(fd)
		return res(err)
	case "socket-netlink":
		fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_ROUTE)
		unix.Close(fd)
		return res(err)
	case "socketpair":
		fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
		if err == nil {
			unix.Close(fds[0])
			unix.Close(fds[1])
		}
		return res(err)
	case "connect-tcp":
		c, err := net.Dial("tcp", arg)
		if err == nil {
			c.Close()
		}
		return res(err)
	case "connect-abstract":
		c, err := net.Dial("unix", "@"+arg)
		if err == nil {
			c.Close()
		}
		return res(err)
	case "unshare-user":
		return res(unix.Unshare(unix.CLONE_NEWUSER))
	case "clone-newuser":
		return res(errno(unix.RawSyscall6(unix.SYS_CLONE, unix.CLONE_NEWUSER|uintptr(unix.SIGCHLD), 0, 0, 0, 0, 0)))
	case "kill":
		return res(unix.Kill(n, 0))
	case "kill-all":
		return res(unix.Kill(-1, 0))
	case "mount":
		return res(unix.Mount("tmpfs", arg, "tmpfs", 0, ""))
	case "ptrace":
		return res(errno(unix.RawSyscall6(unix.SYS_PTRACE, unix.PTRACE_ATTACH, uintptr(n), 0, 0, 0, 0)))
	case "open-tty":
		f, err := os.Open(arg)
		if err == nil {
			f.Close()
		}
		return res(err)
	case "int80":
		return "skipped"
	default:
		if r, ok := helperMore(action, arg); ok {
			return res(r)
		}
	}
	return "unknown action " + action
}

// runHelper runs the test binary confined (or not) as a helper.
func runHelper(t *testing.T, s *Sandbox, confine bool, action, arg string) string {
	t.Helper()
	return runHelperWith(t, s, confinement(confine), action, arg)
}

// confinement is the Confinement of a command confined without network,
// or nil for an unconfined one.
func confinement(confine bool) *Confinement {
	if !confine {
		return nil
	}
	return &Confinement{}
}

// runHelperWith runs the test binary as a helper, confined as c says.
func runHelperWith(t *testing.T, s *Sandbox, c *Confinement, action, arg string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$", arg)
	cmd.Env = append(os.Environ(), helperEnv+"="+action)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	p, err := s.Start(cmd, c)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(); err != nil {
		t.Fatalf("%s: %v\n%s", action, err, out.String())
	}
	if err := p.Cleanup(); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(out.String())
}

func landlockBox(t *testing.T, opts Options) *Sandbox {
	t.Helper()
	if abi, _ := landlockABI(); abi < 1 {
		t.Skip("the kernel has no Landlock")
	}
	opts.Choice = "landlock"
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func shellRun(t *testing.T, s *Sandbox, confine bool, script string, args ...string) string {
	t.Helper()
	cmd := exec.Command("bash", append([]string{"-c", script, "sh"}, args...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	p, err := s.Start(cmd, confinement(confine))
	if err != nil {
		t.Fatal(err)
	}
	_ = p.Wait()
	if p.Scratch() != "" {
		if _, err := os.Stat(p.Scratch()); err != nil {
			t.Errorf("scratch directory gone before Cleanup: %v", err)
		}
	}
	if err := p.Cleanup(); err != nil {
		t.Fatal(err)
	}
	if p.Scratch() != "" {
		if _, err := os.Stat(p.Scratch()); !os.IsNotExist(err) {
			t.Errorf("scratch directory %s left behind", p.Scratch())
		}
	}
	return out.String()
}

func TestLandlockWritesOnlyScratch(t *testing.T) {
	s := landlockBox(t, Options{})
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("original"), 0o644)
	out := shellRun(t, s, true, `
		echo x > "$1/new" || echo new-refused
		echo x > "$1/target" || echo overwrite-refused
		: > "$1/target" 2>/dev/null || echo truncate-refused
		rm -f "$1/target" || echo remove-refused
		mkdir "$1/d" || echo mkdir-refused
		ln -s target "$1/l" || echo symlink-refused
		mkfifo "$1/f" || echo fifo-refused
		echo ok > /dev/null && echo devnull-ok
		echo scratch > "$TMPDIR/s" && cat "$TMPDIR/s"
		cat "$1/target"; echo
	`, dir)
	for _, want := range []string{"new-refused", "overwrite-refused", "truncate-refused", "remove-refused", "mkdir-refused",
		"symlink-refused", "fifo-refused", "devnull-ok", "scratch", "original"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if data, _ := os.ReadFile(target); string(data) != "original" {
		t.Errorf("target changed: %q", data)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory has %d entries", len(entries))
	}
	// Unconfined, the same sandbox value runs commands normally.
	shellRun(t, s, false, `echo free > "$1/free"`, dir)
	if _, err := os.Stat(filepath.Join(dir, "free")); err != nil {
		t.Errorf("an unconfined command could not write: %v", err)
	}
}

func TestSeccompRefusesWhatLandlockDoesNotCover(t *testing.T) {
	s := landlockBox(t, Options{})
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, []byte("x"), 0o644)
	before, _ := os.Stat(file)
	out := shellRun(t, s, true, `
		chmod 000 "$1" || echo chmod-refused
		touch -d 2001-01-01 "$1" || echo touch-refused
		ulimit -c unlimited || echo ulimit-refused
		ulimit -c
	`, file)
	for _, want := range []string{"chmod-refused", "touch-refused", "ulimit-refused"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	after, _ := os.Stat(file)
	if after.Mode() != before.Mode() || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("mode or time changed: %v %v -> %v %v", before.Mode(), before.ModTime(), after.Mode(), after.ModTime())
	}
	eperm := unix.EPERM.Error()
	for _, tc := range []struct{ action, arg, want string }{
		{"setxattr", file, eperm},
		{"chown", file, eperm},
		{"setrlimit-core-high-bits", "", eperm},
		{"prlimit-other", strconv.Itoa(os.Getpid()), eperm},
		{"tiocsti-high-bits", "", eperm},
		{"socket-inet", "", eperm},
		{"socket-unix", "", eperm},
		{"socket-packet", "", eperm},
		{"socket-netlink", "", "ok"},
		{"socketpair", "", "ok"},
		{"unshare-user", "", eperm},
		{"clone-newuser", "", eperm},
		{"kill", strconv.Itoa(os.Getpid()), eperm},
		{"kill-all", "", eperm},
		{"mount", dir, eperm},
		{"ptrace", strconv.Itoa(os.Getpid()), eperm},
	} {
		if got := runHelper(t, s, true, tc.action, tc.arg); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.action, got, tc.want)
		}
	}
	// The same probes work unconfined, so the refusals above are the
	// sandbox's.
	if got := runHelper(t, s, false, "socket-inet", ""); got != "ok" {
		t.Errorf("unconfined socket: %s", got)
	}
	if got := runHelper(t, s, false, "setxattr", file); got != "ok" && got != unix.EOPNOTSUPP.Error() {
		t.Errorf("unconfined setxattr: %s", got)
	}
}

func TestCommandsLoseEveryCapability(t *testing.T) {
	s := landlockBox(t, Options{})
	out := shellRun(t, s, true, `grep -E '^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):' /proc/self/status`)
	for _, want := range []string{"CapEff:\t0000000000000000", "CapBnd:\t0000000000000000", "CapPrm:\t0000000000000000", "NoNewPrivs:\t1", "Seccomp:\t2"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

func TestTerminalsStayClosed(t *testing.T) {
	s := landlockBox(t, Options{})
	for _, p := range []string{"/dev/tty", "/dev/ptmx", "/dev/console"} {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		if got := runHelper(t, s, true, "open-tty", p); got == "ok" {
			t.Errorf("a confined command opened %s", p)
		}
	}
}

func TestNetworkSetting(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	if got := runHelper(t, landlockBox(t, Options{}), true, "connect-tcp", ln.Addr().String()); got == "ok" {
		t.Error("a confined command connected to a TCP listener")
	}
	if got := runHelper(t, landlockBox(t, Options{Network: true}), true, "connect-tcp", ln.Addr().String()); got != "ok" {
		t.Errorf("with the network setting on: %s", got)
	}
}

// A command allowed to fetch may connect to the ports of its fetches and
// to no other, and still may not reach Unix sockets.
func TestFetchPorts(t *testing.T) {
	s := landlockBox(t, Options{})
	if s.abi < 4 {
		t.Skip("Landlock ABI below 4 cannot limit TCP ports")
	}
	allowed, other := tcpListener(t), tcpListener(t)
	c := &Confinement{Ports: []uint16{port(t, allowed)}}
	if got := runHelperWith(t, s, c, "connect-tcp", allowed.Addr().String()); got != "ok" {
		t.Errorf("the fetch's port: %s", got)
	}
	if got := runHelperWith(t, s, c, "connect-tcp", other.Addr().String()); got == "ok" {
		t.Error("a command allowed one port connected to another")
	}
	if got := runHelperWith(t, s, c, "socket-unix", ""); got == "ok" {
		t.Error("a command allowed to fetch opened a Unix socket")
	}
}

// tcpListener accepts and closes connections until the test ends.
func tcpListener(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return ln
}

func port(t *testing.T, ln net.Listener) uint16 {
	t.Helper()
	return uint16(ln.Addr().(*net.TCPAddr).Port)
}

// Abstract Unix sockets outside the sandbox stay out of reach even with
// the network on (Landlock's scope, not only seccomp's socket rule).
func TestAbstractSocketsScoped(t *testing.T) {
	s := landlockBox(t, Options{Network: true})
	if s.abi < 6 {
		t.Skip("Landlock ABI below 6 has no scopes")
	}
	name := fmt.Sprintf("ponder-test-%d", os.Getpid())
	ln, err := net.Listen("unix", "@"+name)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if got := runHelper(t, s, true, "connect-abstract", name); got == "ok" {
		t.Error("a confined command reached an abstract socket outside the sandbox")
	}
	if got := runHelper(t, s, false, "connect-abstract", name); got != "ok" {
		t.Errorf("unconfined: %s", got)
	}
}

// The restrictions stay on the threads that started confined commands:
// after many of them, in parallel, no other thread of ponder has
// no_new_privs, a seccomp filter or fewer capabilities, ponder still
// writes files, and unconfined commands still write too.
func TestOtherThreadsUnaffected(t *testing.T) {
	s := landlockBox(t, Options{})
	capsBefore := threadField(t, "self", "CapEff")
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command("bash", "-c", `echo x > "$1/confined-$2" 2>/dev/null; exit 0`, "sh", dir, strconv.Itoa(i))
			p, err := s.Start(cmd, &Confinement{})
			if err != nil {
				t.Error(err)
				return
			}
			p.Wait()
			p.Cleanup()
		}()
	}
	wg.Wait()
	// A command's Done fires just before its thread's goroutine returns
	// and the runtime ends the thread, so a restricted thread may still
	// be on its way out; wait for that, a bounded time.
	var restricted []string
	for range 500 {
		restricted = restrictedThreads(capsBefore)
		if len(restricted) == 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(restricted) > 0 {
		t.Fatalf("threads still restricted after every confined command ended: %v", restricted)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("confined commands wrote %d files", len(entries))
	}
	for i := range 20 {
		p := filepath.Join(dir, fmt.Sprintf("ponder-%d", i))
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatalf("ponder's own write failed after confined commands: %v", err)
		}
	}
	shellRun(t, s, false, `echo x > "$1/unconfined"`, dir)
	if _, err := os.Stat(filepath.Join(dir, "unconfined")); err != nil {
		t.Fatal("an unconfined command could not write after confined ones")
	}
}

// restrictedThreads lists this process's threads that have no_new_privs,
// a seccomp filter, or capabilities other than caps.
func restrictedThreads(caps string) []string {
	var out []string
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, task := range tasks {
		status, err := os.ReadFile("/proc/self/task/" + task.Name() + "/status")
		if err != nil {
			continue // the thread ended meanwhile
		}
		st := string(status)
		if !strings.Contains(st, "NoNewPrivs:\t0") || !strings.Contains(st, "Seccomp:\t0") || !strings.Contains(st, "CapEff:\t"+caps) {
			out = append(out, task.Name())
		}
	}
	return out
}

func threadField(t *testing.T, task, field string) string {
	data, err := os.ReadFile("/proc/" + task + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, field+":\t"); ok {
			return v
		}
	}
	t.Fatalf("no %s in /proc/%s/status", field, task)
	return ""
}

func TestBubblewrapWritesOnlyScratch(t *testing.T) {
	testenv.Program(t, "bwrap", "the fallback sandbox")
	s, err := New(Options{Choice: "bwrap"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Kind() != KindBubblewrap {
		t.Fatalf("kind %s", s.Kind())
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "target"), []byte("original"), 0o644)
	out := shellRun(t, s, true, `
		cd "$1"
		echo x > target || echo overwrite-refused
		touch new || echo create-refused
		chmod 000 target || echo chmod-refused
		echo scratch > "$TMPDIR/s" && cat "$TMPDIR/s"
		exec 3<>/dev/tcp/127.0.0.1/9 || echo network-refused
		ulimit -c unlimited || echo ulimit-refused
		ls /dev/pts 2>/dev/null | wc -l
	`, dir)
	for _, want := range []string{"overwrite-refused", "create-refused", "chmod-refused", "scratch", "network-refused", "ulimit-refused"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "target")); string(data) != "original" {
		t.Errorf("target changed: %q", data)
	}
	info, _ := os.Stat(filepath.Join(dir, "target"))
	if info.Mode().Perm() != 0o644 {
		t.Errorf("mode changed to %v", info.Mode())
	}
}

func TestChoice(t *testing.T) {
	if _, err := New(Options{Choice: "chroot"}); err == nil || !strings.Contains(err.Error(), ChoiceEnv) {
		t.Errorf("bad choice: %v", err)
	}
	s, err := New(Options{Choice: "none"})
	if err != nil || s.Available() || s.Kind() != KindNone {
		t.Fatalf("none: %v %v", s, err)
	}
	cmd := exec.Command("true")
	if _, err := s.Start(cmd, &Confinement{}); err != ErrUnavailable {
		t.Errorf("confined start without a sandbox: %v", err)
	}
	if _, err := New(Options{Choice: "seatbelt"}); err == nil {
		t.Error("seatbelt chosen on Linux")
	}
}

// Unconfined commands keep every capability but CAP_SYS_PTRACE, in every
// set, so that even as root they cannot read ponder's memory; ponder's
// own threads keep theirs.
func TestUnconfinedCommandsLosePtrace(t *testing.T) {
	capsBefore := threadField(t, "self", "CapEff")
	var s *Sandbox
	out := shellRun(t, s, false, `grep -E '^(CapInh|CapPrm|CapEff|CapBnd|CapAmb):' /proc/self/status`)
	const ptrace = 1 << unix.CAP_SYS_PTRACE
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		name, hex, _ := strings.Cut(l, ":\t")
		v, err := strconv.ParseUint(hex, 16, 64)
		if err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if v&ptrace != 0 {
			t.Errorf("%s still holds CAP_SYS_PTRACE: %s", name, hex)
		}
	}
	if os.Geteuid() == 0 {
		if !strings.Contains(out, "CapEff:\t") || strings.Contains(out, "CapEff:\t0000000000000000") {
			t.Errorf("an unconfined command run as root lost more than CAP_SYS_PTRACE:\n%s", out)
		}
		// The attack this stops: reading ponder's memory as root.
		mem := shellRun(t, s, false, `dd if=/proc/$PPID/mem bs=1 count=1 skip=$((16#$(head -c 12 /proc/$PPID/maps | cut -d- -f1))) 2>&1 >/dev/null | head -1`)
		if !strings.Contains(mem, "ermission denied") && !strings.Contains(mem, "not permitted") {
			t.Errorf("an unconfined command read ponder's memory: %q", mem)
		}
	}
	if after := threadField(t, "self", "CapEff"); after != capsBefore {
		t.Errorf("ponder's own capabilities changed: %s, was %s", after, capsBefore)
	}
}

// The deny layer keeps every command, confined or not, from reading the
// denied paths (and another name of a denied file) and from writing the
// denied ones, and leaves the rest as it was.
func TestDenyLayer(t *testing.T) {
	if !denySupported() {
		t.Skip("the kernel has no Landlock")
	}
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "secret"), []byte("SECRET-TEXT\n"), 0o644))
	must(os.Link(filepath.Join(dir, "secret"), filepath.Join(dir, "alias")))
	must(os.MkdirAll(filepath.Join(dir, "keys", "deep"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "keys", "deep", "k"), []byte("KEY-TEXT\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "open.txt"), []byte("OPEN-TEXT\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "locked.txt"), []byte("LOCKED\n"), 0o644))
	must(os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	d := Deny{Read: []string{filepath.Join(dir, "secret"), filepath.Join(dir, "keys")}, Write: []string{filepath.Join(dir, "locked.txt")}}
	script := `cd "$1"; cat secret alias keys/deep/k open.txt 2>&1; echo more >> locked.txt 2>&1 || echo WRITE-REFUSED; : > locked.txt 2>&1 || echo TRUNCATE-REFUSED; echo new > sub/new.txt && cat sub/new.txt; echo ok > written.txt && echo WROTE-OPEN`
	for _, confined := range []bool{false, true} {
		var s *Sandbox
		if confined {
			s = landlockBox(t, Options{})
			script = strings.ReplaceAll(script, "echo ok > written.txt && echo WROTE-OPEN", "true")
			script = strings.ReplaceAll(script, "echo new > sub/new.txt && cat sub/new.txt", "true")
		}
		cmd := exec.Command("bash", "-c", script, "sh", dir)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		p, err := s.StartWith(cmd, StartOptions{Confine: confinement(confined), Deny: d})
		must(err)
		_ = p.Wait()
		_ = p.Cleanup()
		got := out.String()
		for _, bad := range []string{"SECRET-TEXT", "KEY-TEXT"} {
			if strings.Contains(got, bad) {
				t.Errorf("confined=%v: a denied file was read:\n%s", confined, got)
			}
		}
		if !strings.Contains(got, "OPEN-TEXT") {
			t.Errorf("confined=%v: an open file could not be read:\n%s", confined, got)
		}
		if data, _ := os.ReadFile(filepath.Join(dir, "locked.txt")); string(data) != "LOCKED\n" {
			t.Errorf("confined=%v: a denied file was written: %q\n%s", confined, data, got)
		}
		if !confined && !strings.Contains(got, "new\n") {
			t.Errorf("an unconfined command could not write elsewhere:\n%s", got)
		}
		// The documented cost: a new file directly in a directory on the
		// way to a denied path gets no grant.
		if !confined && strings.Contains(got, "WROTE-OPEN") {
			t.Errorf("a new file beside a denied one was written; the layer is not what the documentation says:\n%s", got)
		}
	}
	// Without a deny list nothing changes.
	if out := shellRun(t, nil, false, `cat "$1/secret"`, dir); !strings.Contains(out, "SECRET-TEXT") {
		t.Errorf("without a deny layer: %q", out)
	}
}

// As root, a confined command's shell is the first process of a PID
// namespace of its own: whatever it leaves running, however detached,
// dies with it, and the command holds no capability to make namespaces
// itself. Without root there is no namespace, and doctor says so.
func TestCommandsGetAPIDNamespace(t *testing.T) {
	s := landlockBox(t, Options{})
	notes := strings.Join(s.Status().Restricts, "\n")
	if !pidNamespaceWorks() {
		if !strings.Contains(notes, "best effort") {
			t.Errorf("doctor does not say containment is best effort:\n%s", notes)
		}
		t.Skip("no PID namespaces here (ponder is not root)")
	}
	if !strings.Contains(notes, "PID namespace per command") {
		t.Errorf("doctor does not name the PID namespace:\n%s", notes)
	}
	marker := fmt.Sprintf("4%05d", os.Getpid()%100000)
	out := shellRun(t, s, true, `echo "pid $$"; setsid sh -c "sleep 300.$1" </dev/null >/dev/null 2>&1 & (sleep 301.$1 </dev/null >/dev/null 2>&1 &) ; unshare -p true 2>/dev/null && echo unshared; exit 0`, marker)
	if !strings.Contains(out, "pid 1\n") {
		t.Errorf("the shell is not its namespace's first process:\n%s", out)
	}
	if strings.Contains(out, "unshared") {
		t.Errorf("the command made a PID namespace of its own:\n%s", out)
	}
	// The kernel has killed the namespace's other processes by the time
	// the shell is reaped: no waiting.
	if left := procsWith(marker); len(left) > 0 {
		for _, p := range left {
			pid, _ := strconv.Atoi(strings.SplitN(p, ":", 2)[0])
			_ = unix.Kill(pid, unix.SIGKILL)
		}
		t.Fatalf("processes outlived the command's shell: %v", left)
	}
}

// procsWith lists live processes whose command line holds marker.
func procsWith(marker string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil || !strings.Contains(string(cmdline), marker) || bytes.Contains(stat, []byte(") Z ")) {
			continue
		}
		out = append(out, e.Name()+": "+strings.ReplaceAll(string(cmdline), "\x00", " "))
	}
	return out
}
