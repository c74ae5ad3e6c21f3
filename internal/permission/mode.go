// Package permission decides whether a tool call may run. It holds the
// permission modes, the allow/ask/deny rules from settings and flags, the
// one Decide function every call passes through, and the Asker that blocks
// until somebody answers a question.
package permission

import (
	"fmt"

	"github.com/ponder-agent/ponder/event"
)

// Mode is a session's permission mode.
type Mode string

// The permission modes.
const (
	// ModeDefault runs reads and read-only commands; asks before edits and
	// other commands.
	ModeDefault Mode = event.ModeDefault
	// ModeAcceptEdits also lets file edits inside the project through.
	ModeAcceptEdits Mode = event.ModeAcceptEdits
	// ModePlan allows reading and writing the plan file only.
	ModePlan Mode = event.ModePlan
	// ModeBypass allows everything that no deny rule forbids.
	ModeBypass Mode = event.ModeBypass
)

// Modes lists every mode in the order a user cycles through them.
var Modes = []Mode{ModeDefault, ModeAcceptEdits, ModePlan, ModeBypass}

// ParseMode checks a mode name as given on the command line or in settings.
func ParseMode(s string) (Mode, error) {
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown permission mode %q (want default, acceptEdits, plan or bypassPermissions)", s)
}

// Title is the mode in words, as shown to users.
func (m Mode) Title() string {
	switch m {
	case ModeAcceptEdits:
		return "accept edits"
	case ModePlan:
		return "plan mode"
	case ModeBypass:
		return "bypass permissions"
	}
	return "default"
}

// freedom orders the modes by what they let through without a question:
// plan, default, acceptEdits, then bypassPermissions. A name that is no
// mode counts as the freest, so that a limit never lets it through.
func (m Mode) freedom() int {
	switch m {
	case ModePlan:
		return 0
	case ModeDefault:
		return 1
	case ModeAcceptEdits:
		return 2
	}
	return 3
}

// Freer reports whether m lets through more without a question than o.
func (m Mode) Freer(o Mode) bool { return m.freedom() > o.freedom() }

// Within returns m, or limit when m lets through more than limit does.
func (m Mode) Within(limit Mode) Mode {
	if m.Freer(limit) {
		return limit
	}
	return m
}
