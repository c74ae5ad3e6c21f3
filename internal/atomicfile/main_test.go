package atomicfile

import (
	"fmt"
	"os"
	"testing"
)

// TestMain keeps the key of temporary names out of the user's real cache
// directory.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "atomicfile-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
