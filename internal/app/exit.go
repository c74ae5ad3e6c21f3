package app

import "errors"

// Exit statuses of the command line.
const (
	ExitOK      = 0
	ExitFailure = 1
	ExitUsage   = 2
)

// UsageError is a problem with how ponder was invoked or configured.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// ExitCode is the one mapping of an outcome to an exit status: none is 0,
// a usage or settings problem (UsageError, a plan still waiting) 2, and
// everything else 1.
func ExitCode(err error) int {
	var ue *UsageError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ue), errors.Is(err, ErrPlanPending):
		return ExitUsage
	}
	return ExitFailure
}
