//go:build unix && !linux

package proctree

import "syscall"

func (other) killGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }

func (other) ids() (sid, pgid int) {
	sid, _ = syscall.Getsid(0)
	return sid, syscall.Getpgrp()
}
