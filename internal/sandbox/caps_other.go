//go:build !(linux && (amd64 || arm64))

package sandbox

// unconfinedRestrict is what every command started outside the sandbox
// gets on its starting thread: nothing where ptrace capabilities are not
// Linux's.
var unconfinedRestrict func() error
