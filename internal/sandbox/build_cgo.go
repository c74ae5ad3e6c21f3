//go:build cgo

package sandbox

// cgoBuild says this binary was built with cgo.
const cgoBuild = true
