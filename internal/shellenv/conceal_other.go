//go:build !unix

package shellenv

// Conceal does nothing where process environments are not exposed the way
// /proc exposes them.
func Conceal() error { return nil }
