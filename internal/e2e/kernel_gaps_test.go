package e2e

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/testenv"
)

// hookWorld is a git repository with a changed file whose core.fsmonitor
// hook runs hook: code that a hostile repository gets to run inside the
// sandbox during a read-only "git status" in plan mode. The hook writes
// what it saw to standard error, which git passes on to the command's
// output.
func hookWorld(t *testing.T, api, hook string) *world {
	t.Helper()
	haveSandbox(t, "landlock")
	w := newWorld(t, api)
	w.write("a.txt", "hello\n")
	for _, c := range []string{
		"git init -q . && git add a.txt && git -c user.email=a@b -c user.name=a commit -qm init",
		"echo dirty >> a.txt",
	} {
		if out, err := runIn(w.dir, c); err != nil {
			t.Fatalf("%s: %v\n%s", c, err, out)
		}
	}
	cmd := exec.Command("git", "config", "core.fsmonitor", "{ "+hook+"; } >&2; true")
	cmd.Dir = w.dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git config: %v\n%s", err, out)
	}
	return w
}

// runHook has the model run command (a git status) in plan mode and
// returns the command's output.
func runHook(t *testing.T, w *world, command string, args ...string) string {
	t.Helper()
	w.srv.Add(callsThenDone("look at the repository", []fakemodel.ToolCall{bashCall(command)})...)
	w.mustRun(0, "", append([]string{"-p", "look at the repository", "--permission-mode", "plan"}, args...)...)
	res := w.lastResults(1)
	if failed(res[0]) && !strings.Contains(res[0].Content, "hook:") {
		t.Fatalf("the command did not run: %q", res[0].Content)
	}
	if !strings.Contains(res[0].Content, "hook:") {
		t.Fatalf("the hook did not run: %q", res[0].Content)
	}
	return res[0].Content
}

// fsIocGetVersion is FS_IOC_GETVERSION, which golang.org/x/sys does not
// name.
const fsIocGetVersion = 0x80087601

// inodeState is what the hook may not change: inode flags, generation
// and change time.
func inodeState(t *testing.T, p string) string {
	t.Helper()
	fd, err := unix.Open(p, unix.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	flags, ferr := unix.IoctlGetUint32(fd, unix.FS_IOC_GETFLAGS)
	gen, gerr := unix.IoctlGetUint32(fd, fsIocGetVersion)
	var st unix.Stat_t
	unix.Fstat(fd, &st)
	return fmt.Sprintf("flags %x (%v) generation %d (%v) ctime %d.%d", flags, ferr, gen, gerr, st.Ctim.Sec, st.Ctim.Nsec)
}

// A repository hook in plan mode cannot change inode flags or generations
// of files it may read: not through chattr (FS_IOC_SETFLAGS), the
// FS_IOC_SETVERSION and FS_IOC_FSSETXATTR ioctls, nor the file_setattr
// call that Linux 6.17 added.
func TestHookCannotChangeInodeFlags(t *testing.T) {
	python := testenv.Program(t, "python3", "the attack is a Python script")
	forAPIs(t, func(t *testing.T, api string) {
		victims := t.TempDir()
		var paths []string
		for _, n := range []string{"v1", "v2", "v3", "v4"} {
			p := filepath.Join(victims, n)
			os.WriteFile(p, []byte("victim\n"), 0o644)
			paths = append(paths, p)
		}
		payload := filepath.Join(victims, "..", "payload.py")
		os.WriteFile(payload, []byte(`import ctypes, fcntl, os, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
v2, v3, v4 = sys.argv[1:4]
fa = (ctypes.c_uint64 * 3)()
fa[0] = 0x80
r = libc.syscall(469, -100, v2.encode(), ctypes.byref(fa), 24, 0)
print("hook: file_setattr", r, ctypes.get_errno(), file=sys.stderr)
for path, req, arg in ((v3, 0x40087602, struct.pack("l", 4242)), (v4, 0x401c5820, bytes(28))):
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.ioctl(fd, req, arg)
        print("hook: ioctl ok", hex(req), file=sys.stderr)
    except OSError as e:
        print("hook: ioctl", hex(req), e, file=sys.stderr)
`), 0o644)
		w := hookWorld(t, api, "echo hook: ran; chattr +A "+paths[0]+"; "+python+" "+payload+" "+strings.Join(paths[1:], " "))
		var before []string
		for _, p := range paths {
			before = append(before, inodeState(t, p))
		}
		out := runHook(t, w, "git status --short")
		for i, p := range paths {
			if now := inodeState(t, p); now != before[i] {
				t.Errorf("%s changed: %s -> %s", filepath.Base(p), before[i], now)
			}
		}
		t.Logf("output:\n%s", out)
	})
}

// sysvIDs lists the ids of one kind of System V IPC object
// (/proc/sysvipc/msg, sem or shm).
func sysvIDs(kind string) map[string]bool {
	data, _ := os.ReadFile("/proc/sysvipc/" + kind)
	ids := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n")[1:] {
		if f := strings.Fields(l); len(f) > 1 {
			ids[f[1]] = true
		}
	}
	return ids
}

// A repository hook in plan mode can neither remove nor change other
// programs' System V message queues, semaphores and shared memory, nor
// leave a queue of its own behind.
func TestHookCannotTouchSysVIPC(t *testing.T) {
	testenv.Programs(t, "to make and remove System V objects", "ipcmk", "ipcrm")
	forAPIs(t, func(t *testing.T, api string) {
		mk := func(flag, arg string) string {
			out, err := exec.Command("ipcmk", flag, arg).Output()
			f := strings.Fields(string(out))
			if err != nil || len(f) == 0 {
				t.Fatalf("ipcmk %s: %v %q", flag, err, out)
			}
			id := f[len(f)-1]
			rm := map[string]string{"-Q": "-q", "-S": "-s", "-M": "-m"}[flag]
			t.Cleanup(func() { exec.Command("ipcrm", rm, id).Run() })
			return id
		}
		q, s, m := mk("-Q", "-p0600"), mk("-S", "1"), mk("-M", "4096")
		beforeQ := sysvIDs("msg")
		w := hookWorld(t, api, "echo hook: ran; ipcrm -q "+q+" -s "+s+" -m "+m+"; ipcmk -Q")
		out := runHook(t, w, "git status --short")
		for kind, id := range map[string]string{"msg": q, "sem": s, "shm": m} {
			if !sysvIDs(kind)[id] {
				t.Errorf("the hook removed %s %s", kind, id)
			}
		}
		for id := range sysvIDs("msg") {
			if !beforeQ[id] {
				exec.Command("ipcrm", "-q", id).Run()
				t.Errorf("the hook left message queue %s behind", id)
			}
		}
		t.Logf("output:\n%s", out)
	})
}

// A line allowed to fetch from an address runs confined with TCP to the
// fetch's port only: code in the same line (a hook of the repository it
// runs git in) can send no UDP datagram (the fetch names an address, so
// no name is looked up) and open no MPTCP connection, to any port.
func TestFetchLineOpensTCPToItsPortOnly(t *testing.T) {
	python := testenv.Program(t, "python3", "the attack is a Python script")
	forAPIs(t, func(t *testing.T, api string) {
		h := newHitServer(t)
		udp, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { udp.Close() })
		other, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { other.Close() })
		_, uport, _ := net.SplitHostPort(udp.LocalAddr().String())
		_, tport, _ := net.SplitHostPort(other.Addr().String())
		payload := filepath.Join(t.TempDir(), "payload.py")
		os.WriteFile(payload, []byte(`import socket, sys
u, t = int(sys.argv[1]), int(sys.argv[2])
for what, make, act in (
    ("udp", lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM), lambda s: s.sendto(b"x", ("127.0.0.1", u))),
    ("udp-proto", lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM, 17), lambda s: s.sendto(b"x", ("127.0.0.1", u))),
    ("mptcp", lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262), lambda s: s.connect(("127.0.0.1", t))),
    ("tcp-other-port", lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM), lambda s: s.connect(("127.0.0.1", t))),
):
    try:
        act(make())
        print("hook:", what, "ok", file=sys.stderr)
    except OSError as e:
        print("hook:", what, e, file=sys.stderr)
`), 0o644)
		w := hookWorld(t, api, "echo hook: ran; "+python+" "+payload+" "+uport+" "+tport)
		out := runHook(t, w, "git status --short; curl -s "+h.url("127.0.0.1", "/allowed"),
			"--allowedTools", "WebFetch(domain:127.0.0.1)")
		if h.count("/allowed") != 1 {
			t.Errorf("the allowed fetch did not arrive:\n%s", out)
		}
		// A datagram sent, or a connection made, waits in its socket's
		// queue by the time the sender's sendto or connect returns, and
		// the hook has ended: a short deadline finds it, or there is none.
		udp.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		if n, _, err := udp.ReadFrom(make([]byte, 64)); err == nil {
			t.Errorf("a datagram of %d bytes arrived", n)
		}
		other.(*net.TCPListener).SetDeadline(time.Now().Add(100 * time.Millisecond))
		if c, err := other.Accept(); err == nil {
			c.Close()
			t.Error("a connection reached a port no fetch named")
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "hook:") && strings.HasSuffix(l, " ok") {
				t.Errorf("the hook got through: %s", l)
			}
		}
		t.Logf("output:\n%s", out)
	})
}
