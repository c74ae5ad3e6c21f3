//go:build !unix

package builtin

import "os"

func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }

// openNonBlockingNoFollow is openNonBlocking: links are not refused here.
func openNonBlockingNoFollow(path string) (*os.File, error) { return os.Open(path) }

// pseudoFile knows no pseudo file systems here.
func pseudoFile(*os.File) (bool, string) { return false, "" }
