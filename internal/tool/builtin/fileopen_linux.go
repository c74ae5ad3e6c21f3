//go:build linux

package builtin

import (
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// File system magic numbers (statfs f_type) that golang.org/x/sys does
// not all name.
const (
	procMagic     = 0x9fa0
	debugfsMagic  = 0x64626720
	tracefsMagic  = 0x74726163
	sysfsMagic    = 0x62656572
	configfsMagic = 0x62656570
	securityMagic = 0x73636673
	cgroupMagic   = 0x27e0eb
	cgroup2Magic  = 0x63677270
	bpfMagic      = 0xcafe4a11
	efivarfsMagic = 0xde5e81e4
	pstoreMagic   = 0x6165676c
	binfmtMagic   = 0x42494e4d
	fusectlMagic  = 0x65735543
	selinuxMagic  = 0xf97cff8c
	mqueueMagic   = 0x19800202
	nsfsMagic     = 0x6e736673
)

// pseudoFile reports whether the open file f lives on a file system whose
// sizes mean nothing, and, when its reading takes something away or may
// never end, why the tools refuse it.
func pseudoFile(f *os.File) (pseudo bool, refuse string) {
	// Through the raw descriptor: f.Fd would make it blocking.
	rc, err := f.SyscallConn()
	if err != nil {
		return true, ""
	}
	if err := rc.Control(func(fd uintptr) { pseudo, refuse = pseudoFD(int(fd), f.Name()) }); err != nil {
		return true, ""
	}
	return pseudo, refuse
}

// pseudoFD is pseudoFile for a raw descriptor opened from path.
func pseudoFD(fd int, path string) (pseudo bool, refuse string) {
	var st unix.Statfs_t
	if err := unix.Fstatfs(fd, &st); err != nil {
		return true, ""
	}
	switch uint32(st.Type) {
	case debugfsMagic, tracefsMagic:
		return true, "is on a kernel debugging file system, whose files may wait for events or take away what they show; the file tools do not read there"
	case procMagic:
		if openedName(fd, path) == "kmsg" {
			return true, "is the kernel log: reading it takes the messages away from the system logger and then waits for more, so the file tools do not read it"
		}
		return true, ""
	case sysfsMagic, configfsMagic, securityMagic, cgroupMagic, cgroup2Magic, bpfMagic, efivarfsMagic,
		pstoreMagic, binfmtMagic, fusectlMagic, selinuxMagic, mqueueMagic, nsfsMagic:
		return true, ""
	}
	return false, ""
}

// openedName is the last element of the name the kernel gives the open
// file, whatever links led to it.
func openedName(fd int, fallback string) string {
	target, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if err != nil {
		target = fallback
	}
	return filepath.Base(target)
}
