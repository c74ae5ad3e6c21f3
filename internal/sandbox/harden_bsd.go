//go:build unix && !linux

package sandbox

func notDumpable() error { return nil }
