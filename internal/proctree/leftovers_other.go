//go:build !linux

package proctree

// CanSweep is false: without /proc and pidfds a later ponder cannot find
// or safely kill what an earlier one left.
func CanSweep() bool { return false }

func selfStart() uint64        { return 0 }
func bootID() string           { return "" }
func running(int, uint64) bool { return true }
func killMarked([]record) int  { return 0 }
