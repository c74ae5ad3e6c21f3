//go:build !linux

package builtin

// catchesTerm is true: only Linux starts shells as the first process of a
// PID namespace, which is when it matters.
func catchesTerm(int) bool { return true }
