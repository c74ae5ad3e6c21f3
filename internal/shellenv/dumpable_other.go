//go:build !linux

package shellenv

// keepMemoryPrivate has no portable counterpart outside Linux.
func keepMemoryPrivate() {}
