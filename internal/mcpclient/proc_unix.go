//go:build unix

package mcpclient

import (
	"os/exec"
	"syscall"
)

// ownSession starts a stdio server in a session of its own: the
// terminal's Ctrl-C is ponder's to handle, and stopping the server stops
// everything it started.
func ownSession(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
