package pagecache

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// warmShare is the share of a mapping's pages that must already be cached
// for the random-access advice to apply.
const warmShare = 0.9

func advise() {
	exe, err := os.Executable()
	if err != nil {
		return
	}
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// address perms offset dev inode path
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[5] != exe || strings.ContainsRune(fields[1], 'w') {
			continue
		}
		lo, hi, ok := strings.Cut(fields[0], "-")
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		// The range comes from the kernel's own map of this process, so
		// it is passed to the system calls as plain addresses.
		if cached(uintptr(start), uintptr(end-start)) >= warmShare {
			syscall.Syscall(syscall.SYS_MADVISE, uintptr(start), uintptr(end-start), syscall.MADV_RANDOM)
		}
	}
}

// cached returns the share of the pages of the range [addr, addr+size)
// present in memory.
func cached(addr, size uintptr) float64 {
	page := uintptr(os.Getpagesize())
	n := (size + page - 1) / page
	if n == 0 {
		return 0
	}
	vec := make([]byte, n)
	_, _, errno := syscall.Syscall(syscall.SYS_MINCORE, addr, size, uintptr(unsafe.Pointer(&vec[0])))
	if errno != 0 {
		return 0
	}
	in := 0
	for _, v := range vec {
		in += int(v & 1)
	}
	return float64(in) / float64(n)
}
