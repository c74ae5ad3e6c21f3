//go:build !unix

package mcpclient

import "os/exec"

// ownSession does nothing where there are no sessions.
func ownSession(*exec.Cmd) {}
