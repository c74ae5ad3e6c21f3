//go:build !linux

package sandbox

// onMainThread is false: only Linux restricts the starting thread.
func onMainThread() bool { return false }
