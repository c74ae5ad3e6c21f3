//go:build !unix

package cmdhook

import "syscall"

// procAttr has nothing to set where there are no sessions.
func procAttr() *syscall.SysProcAttr { return nil }
