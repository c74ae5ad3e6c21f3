//go:build linux

package sandbox

import "golang.org/x/sys/unix"

// notDumpable makes ponder's /proc entries root's and refuses ptrace from
// processes without CAP_SYS_PTRACE. Children are dumpable again after
// exec, as usual.
func notDumpable() error { return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0) }
