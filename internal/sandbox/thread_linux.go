//go:build linux

package sandbox

import (
	"os"

	"golang.org/x/sys/unix"
)

// onMainThread reports whether the calling thread is the process's first.
func onMainThread() bool { return unix.Gettid() == os.Getpid() }
