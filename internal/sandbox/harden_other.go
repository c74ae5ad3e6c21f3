//go:build !unix

package sandbox

// HardenProcess has nothing to do on this system.
func HardenProcess() error { return nil }
