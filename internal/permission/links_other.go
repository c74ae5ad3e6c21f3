//go:build !unix

package permission

import "os"

// linkCount cannot be read on this platform; one link is assumed.
func linkCount(os.FileInfo) uint64 { return 1 }

// fileID identifies a file whatever its name.
type fileID struct{ dev, ino uint64 }

// fileIdentity cannot be read on this platform.
func fileIdentity(os.FileInfo) (fileID, uint64, bool) { return fileID{}, 0, false }
