package permission

import (
	"fmt"
	"strings"

	"github.com/ponder-agent/ponder/internal/permission/shellclass"
)

// Outside plan mode and read-only agents, a command that is not judged
// read-only runs confined to its workspace: it may change the project,
// but not what decides what runs later, the user's home or ponder's own
// files. When the sandbox withholds something a command needs, the
// command may ask to run again outside it (Access.Unsandboxed): that
// always asks the user, whatever rule allowed the command, unless the
// user said yes to running that command prefix outside the sandbox for
// the rest of the session. bypass mode runs such commands unconfined
// without asking; sandbox.required refuses them in every mode.

// UnsandboxedPrefix begins a suggested rule that lets commands run
// outside the sandbox for the rest of the session: "unsandboxed
// Bash(git push:*)". Only AddUnsandboxed takes such a rule.
const UnsandboxedPrefix = "unsandboxed "

// workspace confines an exec that may run and is not read-only to the
// workspace policy where there is one. Without one it runs unconfined
// as before, unless sandbox.required refuses that.
func (e *Engine) workspace(c Context, d Decision) Decision {
	if d.Behavior == Deny || d.Sandbox {
		return d
	}
	switch {
	case e.sandbox.Available && e.sandbox.Workspace && (c.Mode != ModeBypass || e.sandbox.Required):
		d.Sandbox, d.Workspace = true, true
	case c.Mode == ModeBypass && !e.sandbox.Required:
	case e.sandbox.Required:
		return Decision{Behavior: Deny, Rule: "sandbox.required", Reason: "sandbox.required is set, and this system cannot confine a command that changes files (ponder doctor says why), so it does not run."}
	}
	return d
}

// escalate decides an exec that asks to run outside the sandbox.
func (e *Engine) escalate(c Context, class shellclass.Result, d Decision) Decision {
	if d.Behavior == Deny {
		return d
	}
	d.Sandbox, d.Workspace, d.Ports, d.Lookup = false, false, nil, false
	switch {
	case e.sandbox.Required:
		return Decision{Behavior: Deny, Rule: "sandbox.required", Reason: "sandbox.required is set: no command runs outside the OS sandbox. Do the work another way, or ask the user to run the command themselves."}
	case c.Mode == ModeBypass:
		return d
	case e.unsandboxedAllowed(class):
		d.Behavior, d.Rule = Allow, "session rule "+UnsandboxedPrefix+"(outside the sandbox)"
		return d
	}
	d.Behavior = Ask
	d.Reason = "Run outside the OS sandbox: the command may then write anywhere the user can, including files that decide what runs later. " + d.Reason
	// What the line fetches is the sandbox's business here, not a
	// WebFetch rule's: the grant is for the command prefix.
	bare := class
	bare.Fetches = nil
	if s := suggestExec(bare); strings.HasPrefix(s, "Bash(") {
		d.Suggest = UnsandboxedPrefix + s
	} else {
		d.Suggest = ""
	}
	return d
}

// unsandboxedAllowed reports whether the session's unsandboxed rules
// cover every command of a line that shows all it runs.
func (e *Engine) unsandboxedAllowed(class shellclass.Result) bool {
	if len(e.unsandboxed) == 0 || class.Opaque != "" || len(class.Commands) == 0 {
		return false
	}
	for _, c := range class.Commands {
		ok := false
		for _, r := range e.unsandboxed {
			if allowMatches(parseCommandSpec(r.Specifier), c) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// AddUnsandboxed lets the commands a Bash rule matches run outside the
// sandbox for the rest of the session without asking ("yes, and don't
// ask again" to running a command prefix outside the sandbox). text may
// carry UnsandboxedPrefix. A rule without a specifier is refused: that
// would be the whole shell.
func (e *Engine) AddUnsandboxed(text string) error {
	r, err := ParseRule(strings.TrimPrefix(text, UnsandboxedPrefix))
	if err != nil {
		return err
	}
	if r.Tool != "Bash" || r.Specifier == "" || r.Specifier == "*" {
		return fmt.Errorf("%q: running outside the sandbox is granted for a command prefix, such as Bash(git push:*)", text)
	}
	e.mu.Lock()
	e.unsandboxed = append(e.unsandboxed, r)
	e.mu.Unlock()
	return nil
}
