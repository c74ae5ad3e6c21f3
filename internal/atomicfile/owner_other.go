//go:build !unix

package atomicfile

import (
	"io/fs"
	"os"
)

// keepOwner does nothing where files have no unix owner.
func keepOwner(*os.File, fs.FileInfo) {}

// ownedByMe cannot tell owners apart here; any file may be the user's.
func ownedByMe(fs.FileInfo) bool { return true }

// processAlive cannot tell here; every process counts as alive, so that
// only a day-old leftover is removed.
func processAlive(int) bool { return true }
