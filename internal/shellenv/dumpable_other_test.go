//go:build !linux

package shellenv

// dumpable is not read outside Linux; the test that asks needs /proc.
func dumpable() int { return 0 }
