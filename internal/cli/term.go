package cli

import (
	"io"
	"os"
)

// isTerminal reports whether f is a character device (a terminal) rather
// than a pipe or a file.
func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// maxPrompt bounds a prompt read from standard input.
const maxPrompt = 16 << 20

func readAll(r io.Reader) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r, maxPrompt))
}
