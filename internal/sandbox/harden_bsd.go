//go:build unix && !linux

package sandbox

func notDumpable() error { return nil }

// noPtraceForChildren has nothing to do here: the bounding set is Linux.
func noPtraceForChildren() {}
