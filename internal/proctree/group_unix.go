//go:build unix && !linux

package proctree

import "syscall"

func (other) killGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }
