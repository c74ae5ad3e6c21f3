//go:build unix && !linux

package builtin

import "syscall"

// shellAttr starts the shell as the leader of a new session (and so of a
// new process group, without a controlling terminal).
func shellAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}
