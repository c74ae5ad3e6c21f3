//go:build !(linux && (amd64 || arm64))

package sandbox

import (
	"errors"
	"os/exec"
)

// errNoWorkspace says the workspace policy needs Linux's namespaces.
var errNoWorkspace = errors.New("the workspace policy needs Linux mount namespaces and Landlock")

func (s *Sandbox) workspaceSupported() error { return errNoWorkspace }

func (s *Sandbox) prepareWorkspace(*exec.Cmd, string, Confinement, Deny) error {
	return errNoWorkspace
}

// startMappable runs start: only Linux gives helpers user namespaces.
func startMappable(_ *exec.Cmd, start func() error) error { return start() }
