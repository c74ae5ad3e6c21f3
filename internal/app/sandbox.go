package app

import (
	"fmt"
	"strings"

	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/sandbox"
)

// ClassifierSwitchEnv is a test switch: "off" makes every shell command
// count as read-only, so that tests can prove the OS sandbox alone keeps
// plan mode's promise. ponder refuses it unless a sandbox is available.
const ClassifierSwitchEnv = "PONDER_TEST_CLASSIFIER"

// openSandbox picks the OS sandbox (or takes the one the front end
// chose), applies sandbox.required and the classifier switch, keeps what
// the permission engine must be told, and notes what users must know.
func (a *App) openSandbox() error {
	set := a.cfg.Settings.Sandbox
	sb := a.opts.Sandbox
	if sb == nil {
		var err error
		sb, err = sandbox.New(sandbox.Options{Network: config.Bool(set.Network, false), Choice: a.opts.Getenv(sandbox.ChoiceEnv)})
		if err != nil {
			return &UsageError{Msg: err.Error()}
		}
	}
	a.sandbox = sb
	st := sb.Status()
	if !sb.Available() && config.Bool(set.Required, false) {
		return &UsageError{Msg: "sandbox.required is set, but no OS sandbox is available here: " + strings.Join(st.Missing, "; ") +
			" (ponder doctor tells more)"}
	}
	classifierOff := false
	switch v := a.opts.Getenv(ClassifierSwitchEnv); v {
	case "", "on":
	case "off":
		if !sb.Available() {
			return &UsageError{Msg: ClassifierSwitchEnv + "=off needs an OS sandbox, and none is available"}
		}
		classifierOff = true
		a.warnings = append(a.warnings, ClassifierSwitchEnv+"=off: every shell command counts as read-only and only the OS sandbox confines it (a test switch)")
	default:
		return &UsageError{Msg: fmt.Sprintf("%s=%q: want on or off", ClassifierSwitchEnv, v)}
	}
	unsandboxed := config.Bool(set.AllowUnsandboxed, false)
	wsErr := sb.WorkspaceAvailable()
	a.sandboxPolicy = permission.SandboxPolicy{Available: sb.Available(), AllowUnsandboxed: unsandboxed, ClassifierOff: classifierOff,
		Workspace: wsErr == nil, Required: config.Bool(set.Required, false)}
	if sb.Available() && wsErr != nil {
		a.warnings = append(a.warnings, "commands that change files cannot be confined to the project here ("+wsErr.Error()+
			"); once allowed they run outside the sandbox (ponder doctor tells more)")
	}
	switch {
	case !sb.Available() && unsandboxed:
		a.warnings = append(a.warnings, "no OS sandbox is available ("+strings.Join(st.Missing, "; ")+
			"); sandbox.allowUnsandboxed is set, so read-only commands run unconfined and only ponder's command check guards plan mode")
	case !sb.Available():
		a.warnings = append(a.warnings, "no OS sandbox is available ("+strings.Join(st.Missing, "; ")+
			"); plan mode and read-only agents will not run shell commands, and commands judged read-only run unconfined elsewhere")
	case len(st.Missing) > 0:
		a.infos = append(a.infos, "sandbox: "+st.Summary()+" ("+strings.Join(st.Missing, "; ")+")")
	}
	return nil
}
