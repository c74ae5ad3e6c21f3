package app

import "github.com/ponder-agent/ponder/internal/config"

// maxWrite is the largest file, in bytes, Write and Edit may leave
// behind: files.maxWriteMiB, or its default.
func (a *App) maxWrite() int64 {
	return int64(config.Int(a.cfg.Settings.Files.MaxWriteMiB, config.DefaultMaxWriteMiB)) << 20
}
