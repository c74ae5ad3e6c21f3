//go:build unix && !linux

package builtin

import "os"

// pseudoFile knows no pseudo file systems here.
func pseudoFile(*os.File) (bool, string) { return false, "" }

// pseudoFD knows no pseudo file systems here.
func pseudoFD(int, string) (bool, string) { return false, "" }
