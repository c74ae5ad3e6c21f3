//go:build linux && (amd64 || arm64)

package sandbox

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/ponder-agent/ponder/internal/testenv"
)

// helperMore runs the probes of the finds below: inode flags through
// ioctl and file_setattr, calls newer than the filter, System V IPC, and
// the kinds of sockets a fetch may open. ok is false for an unknown action.
func helperMore(action, arg string) (error, bool) {
	errno := func(_, _ uintptr, e syscall.Errno) error {
		if e != 0 {
			return e
		}
		return nil
	}
	n, _ := strconv.Atoi(arg)
	switch action {
	case "setflags":
		// chattr +A on a file opened read-only.
		fd, err := unix.Open(arg, unix.O_RDONLY, 0)
		if err != nil {
			return err, true
		}
		defer unix.Close(fd)
		flags, err := unix.IoctlGetUint32(fd, unix.FS_IOC_GETFLAGS)
		if err != nil {
			return err, true
		}
		flags |= 0x80 // FS_NOATIME_FL
		return errno(unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.FS_IOC_SETFLAGS, uintptr(unsafe.Pointer(&flags)))), true
	case "setversion":
		fd, err := unix.Open(arg, unix.O_RDONLY, 0)
		if err != nil {
			return err, true
		}
		defer unix.Close(fd)
		v := int64(4242)
		return errno(unix.Syscall(unix.SYS_IOCTL, uintptr(fd), ioSetVersion, uintptr(unsafe.Pointer(&v)))), true
	case "fssetxattr":
		fd, err := unix.Open(arg, unix.O_RDONLY, 0)
		if err != nil {
			return err, true
		}
		defer unix.Close(fd)
		var fa [28]byte
		if err := errno(unix.Syscall(unix.SYS_IOCTL, uintptr(fd), ioFsGetXattr, uintptr(unsafe.Pointer(&fa[0])))); err != nil {
			return err, true
		}
		fa[0] |= 0x80 // FS_XFLAG_NODUMP
		return errno(unix.Syscall(unix.SYS_IOCTL, uintptr(fd), ioFsSetXattr, uintptr(unsafe.Pointer(&fa[0])))), true
	case "file-setattr":
		// struct file_attr: xflags u64, then four u32.
		var fa [24]byte
		p, _ := unix.BytePtrFromString(arg)
		if err := errno(unix.Syscall6(unix.SYS_FILE_GETATTR, atFdcwd, uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(&fa[0])), 24, 0, 0)); err != nil && err != unix.ENOSYS {
			return err, true
		}
		fa[0] |= 0x80
		return errno(unix.Syscall6(unix.SYS_FILE_SETATTR, atFdcwd, uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(&fa[0])), 24, 0, 0)), true
	case "call":
		return errno(unix.Syscall(uintptr(n), 0, 0, 0)), true
	case "msgget-new":
		key, _ := strconv.ParseInt(arg, 0, 64)
		_, _, e := unix.Syscall(unix.SYS_MSGGET, uintptr(key), unix.IPC_CREAT|0o600, 0)
		return errOrNil(e), true
	case "msgctl-rmid":
		return errno(unix.Syscall(unix.SYS_MSGCTL, uintptr(n), unix.IPC_RMID, 0)), true
	case "semctl-setval":
		return errno(unix.Syscall6(unix.SYS_SEMCTL, uintptr(n), 0, 16 /* SETVAL */, 99, 0, 0)), true
	case "shmat":
		mem, err := unix.SysvShmAttach(n, 0, 0)
		if err == nil {
			copy(mem, "PWNED!")
			unix.SysvShmDetach(mem)
		}
		return err, true
	case "socket-mptcp":
		return sockErr(unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 262)), true
	case "socket-udp":
		return sockErr(unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)), true
	case "socket-tcp":
		return sockErr(unix.Socket(unix.AF_INET6, unix.SOCK_STREAM|unix.SOCK_NONBLOCK, unix.IPPROTO_TCP)), true
	case "send-udp":
		c, err := net.Dial("udp", arg)
		if err != nil {
			return err, true
		}
		defer c.Close()
		_, err = c.Write([]byte("from the sandbox"))
		return err, true
	case "fastopen":
		// A TCP connection made by sendto with MSG_FASTOPEN rather than
		// connect.
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
		if err != nil {
			return err, true
		}
		defer unix.Close(fd)
		addr, _ := net.ResolveTCPAddr("tcp", arg)
		sa := &unix.SockaddrInet4{Port: addr.Port}
		copy(sa.Addr[:], addr.IP.To4())
		return unix.Sendto(fd, []byte("GET / HTTP/1.0\r\n\r\n"), unix.MSG_FASTOPEN, sa), true
	}
	return nil, false
}

// atFdcwd is AT_FDCWD as a system call argument.
var atFdcwd = uintptr(1<<64 - 100)

func errOrNil(e syscall.Errno) error {
	if e != 0 {
		return e
	}
	return nil
}

func sockErr(fd int, err error) error {
	if err == nil {
		unix.Close(fd)
	}
	return err
}

// inodeState is what the inode-flag finds change: flags, generation,
// project attributes and the change time.
func inodeState(t *testing.T, path string) string {
	t.Helper()
	fd, err := unix.Open(path, unix.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	flags, _ := unix.IoctlGetUint32(fd, unix.FS_IOC_GETFLAGS)
	var gen int64
	unix.Syscall(unix.SYS_IOCTL, uintptr(fd), ioGetVersion, uintptr(unsafe.Pointer(&gen)))
	var fa [28]byte
	unix.Syscall(unix.SYS_IOCTL, uintptr(fd), ioFsGetXattr, uintptr(unsafe.Pointer(&fa[0])))
	var st unix.Stat_t
	unix.Fstat(fd, &st)
	return strconv.FormatUint(uint64(flags), 16) + " " + strconv.FormatInt(gen, 10) + " " + strconv.Itoa(int(fa[0])) + " " +
		strconv.FormatInt(st.Ctim.Sec, 10) + "." + strconv.FormatInt(st.Ctim.Nsec, 10)
}

// A file opened read-only keeps its inode flags, generation and project
// attributes: FS_IOC_SETFLAGS (chattr), FS_IOC_SETVERSION,
// FS_IOC_FSSETXATTR and file_setattr all fail inside the sandbox, under
// Landlock and under bubblewrap, though each works on the same file
// unconfined (where the file system supports it).
func TestInodeFlagsStay(t *testing.T) {
	for _, kind := range []string{"landlock", "bwrap"} {
		t.Run(kind, func(t *testing.T) {
			s := boxOf(t, kind)
			for _, action := range []string{"setflags", "setversion", "fssetxattr", "file-setattr"} {
				file := filepath.Join(t.TempDir(), "victim")
				os.WriteFile(file, []byte("victim"), 0o644)
				before := inodeState(t, file)
				got := runHelper(t, s, true, action, file)
				if got != unix.EPERM.Error() && got != unix.ENOSYS.Error() {
					t.Errorf("%s confined: %s", action, got)
				}
				if after := inodeState(t, file); after != before {
					t.Errorf("%s changed the inode: %s -> %s", action, before, after)
				}
				// Unconfined the call gets past the filter; the file
				// system may still not support it.
				if got := runHelper(t, s, false, action, file); got == unix.EPERM.Error() {
					t.Errorf("%s unconfined: %s", action, got)
				}
			}
		})
	}
}

// Calls the filter does not know (newer than it, or never meant for
// readers) fail with ENOSYS, so programs fall back.
func TestUnknownCallsFail(t *testing.T) {
	s := landlockBox(t, Options{})
	for _, nr := range []int{unix.SYS_LISTNS, unix.SYS_RSEQ_SLICE_YIELD, 472, 511, unix.SYS_KCMP, unix.SYS_PROCESS_MADVISE} {
		if got := runHelper(t, s, true, "call", strconv.Itoa(nr)); got != unix.ENOSYS.Error() {
			t.Errorf("call %d: %s", nr, got)
		}
	}
}

// boxOf returns a sandbox of the kind named, or skips.
func boxOf(t *testing.T, kind string) *Sandbox {
	t.Helper()
	if kind == "landlock" {
		return landlockBox(t, Options{})
	}
	testenv.Program(t, "bwrap", "the fallback sandbox")
	s, err := New(Options{Choice: "bwrap"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sysvObjects makes a message queue, a semaphore set and a shared memory
// segment as another program would, and removes them when the test ends.
func sysvObjects(t *testing.T) (msq, sem, shm int) {
	t.Helper()
	r1, _, e := unix.Syscall(unix.SYS_MSGGET, unix.IPC_PRIVATE, unix.IPC_CREAT|0o600, 0)
	if e != 0 {
		t.Skipf("msgget: %v", e)
	}
	r2, _, e := unix.Syscall(unix.SYS_SEMGET, unix.IPC_PRIVATE, 1, unix.IPC_CREAT|0o600)
	if e != 0 {
		t.Fatalf("semget: %v", e)
	}
	r3, _, e := unix.Syscall(unix.SYS_SHMGET, unix.IPC_PRIVATE, 4096, unix.IPC_CREAT|0o600)
	if e != 0 {
		t.Fatalf("shmget: %v", e)
	}
	msq, sem, shm = int(r1), int(r2), int(r3)
	t.Cleanup(func() {
		unix.Syscall(unix.SYS_MSGCTL, uintptr(msq), unix.IPC_RMID, 0)
		unix.Syscall(unix.SYS_SEMCTL, uintptr(sem), 0, unix.IPC_RMID)
		unix.Syscall(unix.SYS_SHMCTL, uintptr(shm), unix.IPC_RMID, 0)
	})
	return msq, sem, shm
}

// System V IPC stays closed: a confined command can neither delete
// another program's message queue, set its semaphore, write its shared
// memory, nor make a queue of its own that would outlive it.
func TestSysVIPCClosed(t *testing.T) {
	for _, kind := range []string{"landlock", "bwrap"} {
		t.Run(kind, func(t *testing.T) {
			s := boxOf(t, kind)
			msq, sem, shm := sysvObjects(t)
			key := "0x5eed" + strconv.FormatInt(int64(os.Getpid()%0xffff), 16)
			for _, tc := range [][2]string{{"msgctl-rmid", strconv.Itoa(msq)}, {"semctl-setval", strconv.Itoa(sem)},
				{"shmat", strconv.Itoa(shm)}, {"msgget-new", key}} {
				if got := runHelper(t, s, true, tc[0], tc[1]); got == "ok" {
					t.Errorf("%s succeeded inside the sandbox", tc[0])
				}
			}
			if _, _, e := unix.Syscall(unix.SYS_MSGCTL, uintptr(msq), unix.IPC_STAT, uintptr(unsafe.Pointer(new([256]byte)))); e != 0 {
				t.Errorf("the queue is gone: %v", e)
			}
			if v, _, _ := unix.Syscall(unix.SYS_SEMCTL, uintptr(sem), 0, 12 /* GETVAL */); v != 0 {
				t.Errorf("semaphore value %d", v)
			}
			mem, err := unix.SysvShmAttach(shm, 0, unix.SHM_RDONLY)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(mem[:6]); strings.Contains(got, "PWNED") {
				t.Errorf("shared memory written: %q", got)
			}
			unix.SysvShmDetach(mem)
			k, _ := strconv.ParseInt(key, 0, 64)
			if id, _, e := unix.Syscall(unix.SYS_MSGGET, uintptr(k), 0, 0); e == 0 {
				unix.Syscall(unix.SYS_MSGCTL, id, unix.IPC_RMID, 0)
				t.Error("a queue made inside the sandbox outlived it")
			}
			// Unconfined, the same probe does delete the queue: the
			// refusal above is the sandbox's.
			if got := runHelper(t, s, false, "msgctl-rmid", strconv.Itoa(msq)); got != "ok" {
				t.Errorf("unconfined msgctl: %s", got)
			}
		})
	}
}

// udpListener counts datagrams until the test ends.
func udpListener(t *testing.T) (string, func() int) {
	t.Helper()
	c, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	got := make(chan struct{}, 100)
	go func() {
		buf := make([]byte, 100)
		for {
			if _, _, err := c.ReadFrom(buf); err != nil {
				return
			}
			got <- struct{}{}
		}
	}()
	return c.LocalAddr().String(), func() int { return len(got) }
}

// A command allowed to fetch opens TCP sockets only: no MPTCP (which
// Landlock's TCP rules do not see, so it would reach any port), and no
// UDP unless a fetch names a host to look up. TCP Fast Open, which
// connects through sendto rather than connect, still reaches only the
// allowed ports.
func TestFetchSockets(t *testing.T) {
	s := landlockBox(t, Options{})
	if s.abi < 4 {
		t.Skip("Landlock ABI below 4 cannot limit TCP ports")
	}
	allowed, other := tcpListener(t), tcpListener(t)
	udpAddr, datagrams := udpListener(t)
	byAddress := &Confinement{Ports: []uint16{port(t, allowed)}}
	byName := &Confinement{Ports: []uint16{port(t, allowed)}, Lookup: true}
	eperm := unix.EPERM.Error()
	for _, tc := range []struct {
		c            *Confinement
		action, arg  string
		want         string
		mayBeRefused bool
	}{
		{byAddress, "socket-tcp", "", "ok", false},
		{byAddress, "socket-mptcp", "", eperm, false},
		{byAddress, "socket-udp", "", eperm, false},
		{byAddress, "send-udp", udpAddr, "", true},
		{byName, "socket-mptcp", "", eperm, false},
		{byName, "socket-udp", "", "ok", false},
		{byName, "fastopen", other.Addr().String(), "", true},
		{byAddress, "fastopen", other.Addr().String(), "", true},
		{&Confinement{}, "socket-tcp", "", eperm, false},
	} {
		got := runHelperWith(t, s, tc.c, tc.action, tc.arg)
		switch {
		case tc.mayBeRefused && got == "ok":
			t.Errorf("%s %s with %+v succeeded", tc.action, tc.arg, *tc.c)
		case !tc.mayBeRefused && got != tc.want:
			t.Errorf("%s with %+v: %s, want %s", tc.action, *tc.c, got, tc.want)
		}
	}
	if n := datagrams(); n > 0 {
		t.Errorf("%d datagrams reached a UDP port no rule names", n)
	}
}
