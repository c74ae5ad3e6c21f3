//go:build !unix

package builtin

import "os"

// openNoBlock opens a file for reading.
func openNoBlock(path string) (*os.File, error) { return os.Open(path) }
