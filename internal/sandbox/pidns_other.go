//go:build !(linux && (amd64 || arm64))

package sandbox

// startsPIDNamespaces is false: only Linux gives commands PID namespaces.
func (s *Sandbox) startsPIDNamespaces() bool { return false }
