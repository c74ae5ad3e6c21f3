//go:build !unix

package permission

import "os"

// linkCount cannot be read on this platform; one link is assumed.
func linkCount(os.FileInfo) uint64 { return 1 }
