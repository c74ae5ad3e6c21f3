//go:build !unix

package smallfile

import "os"

func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
