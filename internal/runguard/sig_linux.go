//go:build linux

package runguard

import (
	"os"
	"syscall"
)

// sigOf returns what tells a file's content may have changed without
// reading it: size, mode, identity and both times. The change time
// cannot be set back by a program, as the modification time can.
func sigOf(info os.FileInfo) (sig, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return sig{}, false
	}
	return sig{
		size: info.Size(), mode: info.Mode(), ino: uint64(st.Ino), dev: uint64(st.Dev),
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(),
	}, true
}
