//go:build !linux

package proctree

import (
	"os"
	"time"
)

// other has no /proc: the Tracker can only kill process groups there.
type other struct{}

func hostSystem() system { return other{} }

func (other) pid() int                   { return os.Getpid() }
func (other) becomeSubreaper()           {}
func (other) now() uint64                { return uint64(time.Now().UnixNano()) }
func (other) list() map[int]proc         { return nil }
func (other) kill(int, uint64) int       { return -1 }
func (other) await([]int, time.Duration) {}
func (other) reap(int, uint64) bool      { return false }
func (other) zombies() map[int]proc      { return nil }
func (other) watchChildren(func())       {}
