//go:build unix

package builtin

import "syscall"

// signalGroup sends SIGTERM, or SIGKILL when kill is set, to the process
// group the command leads.
func signalGroup(pid int, kill bool) {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-pid, sig)
}
