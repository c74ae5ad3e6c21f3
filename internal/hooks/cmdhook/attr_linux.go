//go:build linux

package cmdhook

import "syscall"

// procAttr starts the hook as the leader of a new session (so of a new
// process group, with no controlling terminal), killed if ponder dies
// first.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}
