//go:build !unix

package builtin

import "syscall"

// shellAttr has nothing to set where there are no sessions.
func shellAttr() *syscall.SysProcAttr { return nil }

// signalGroup cannot reach a group where there are none; the process
// tracker kills what it can.
func signalGroup(int, bool) {}
