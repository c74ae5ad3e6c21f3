package atomicfile

import (
	"fmt"
	"os"
	"testing"
)

// TestMain keeps the key of temporary names, and the notes of where they
// are made, out of the user's real directories.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "atomicfile-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	os.Setenv("PONDER_CONFIG_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
