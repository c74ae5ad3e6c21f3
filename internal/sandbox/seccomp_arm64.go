//go:build linux

package sandbox

import "golang.org/x/sys/unix"

// filterArch is the audit architecture of native calls.
const filterArch = unix.AUDIT_ARCH_AARCH64

// filterFirstBad is 0: arm64 has no second ABI sharing its architecture
// value.
const filterFirstBad = 0

// archAllowed is empty: arm64 has only the generic calls.
var archAllowed []uint32

// archDenied is empty: arm64 has only the *at forms of chmod, chown and
// utime, and no port I/O.
var archDenied []uint32

// archMetadata is empty, as archDenied is.
var archMetadata []uint32
