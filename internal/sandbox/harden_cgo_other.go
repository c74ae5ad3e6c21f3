//go:build !linux

package sandbox

func restartWithoutPtrace() {}

// BuildNote says, for ponder doctor, which build this is.
func BuildNote() string {
	if cgoBuild {
		return "cgo build"
	}
	return "pure Go build"
}
