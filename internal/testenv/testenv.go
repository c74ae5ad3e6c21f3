// Package testenv lets a test say which programs it needs beyond what
// ponder's README asks of a machine (Go, git and a POSIX shell with its
// usual utilities). Without them the test is skipped with a message that
// names the program, so `go test ./...` passes on a fresh machine; where
// PONDER_CI_REQUIRE_TOOLS is set (.ci/run sets it after installing them)
// a missing program fails the test instead, so CI cannot skip silently.
//
// Only tests import this package.
package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// RequireVar is the variable that turns a missing program into a failure.
const RequireVar = "PONDER_CI_REQUIRE_TOOLS"

// Required reports whether missing programs fail tests instead of skipping
// them.
func Required() bool { return os.Getenv(RequireVar) != "" }

// Program returns the path of the named program, or ends the test: a skip
// naming the program and why it is needed, or a failure under
// PONDER_CI_REQUIRE_TOOLS.
func Program(t testing.TB, name, why string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		Missing(t, name+" is not installed ("+why+"; .ci/run installs it)")
	}
	return path
}

// Has reports whether the named program is installed, for a test that can
// leave out the part that needs it: without it the test logs what it
// leaves out, or fails under PONDER_CI_REQUIRE_TOOLS.
func Has(t testing.TB, name, why string) bool {
	t.Helper()
	if _, err := exec.LookPath(name); err == nil {
		return true
	}
	msg := name + " is not installed (" + why + "; .ci/run installs it)"
	if Required() {
		t.Fatal(msg)
	}
	t.Log("left out: " + msg)
	return false
}

// Programs is Program for several programs needed for one reason.
func Programs(t testing.TB, why string, names ...string) {
	t.Helper()
	for _, n := range names {
		Program(t, n, why)
	}
}

// Missing ends the test for a missing prerequisite described by msg: a
// skip, or a failure under PONDER_CI_REQUIRE_TOOLS.
func Missing(t testing.TB, msg string) {
	t.Helper()
	if Required() {
		t.Fatal(msg)
	}
	t.Skip(msg)
}
