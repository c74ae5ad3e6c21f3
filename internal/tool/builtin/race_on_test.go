//go:build race

package builtin

// raceEnabled says the tests run under the race detector, which slows
// them and multiplies memory.
const raceEnabled = true
