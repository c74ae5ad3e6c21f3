//go:build unix && !linux

package cmdhook

import "syscall"

// procAttr starts the hook as the leader of a new session (so of a new
// process group, with no controlling terminal).
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}
