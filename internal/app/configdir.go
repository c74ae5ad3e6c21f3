package app

import (
	"fmt"
	"os"
)

// ensureConfigDir creates ponder's config directory and the project's
// session directory in it, so that a directory ponder cannot write is
// reported once, plainly, before anything else fails on it.
func ensureConfigDir(configDir, sessionDir string) error {
	for _, d := range []string{configDir, sessionDir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("ponder keeps its settings, plans and sessions in %s and cannot write there (%v); set PONDER_CONFIG_DIR to a directory you can write", configDir, unwrapPath(err))
		}
	}
	return nil
}

// unwrapPath drops the path from a file system error, which the message
// around it names already.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}
