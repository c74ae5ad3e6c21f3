// Package sandbox runs commands behind a wall the operating system keeps:
// a confined command can read and run what it likes, but it cannot write
// outside a private scratch directory, reach the network (unless allowed),
// signal or talk to processes outside itself, or gain privileges. On Linux
// the wall is Landlock plus a seccomp filter and dropped capabilities,
// applied to one thread only; bubblewrap stands in where Landlock is
// missing; on macOS it is a Seatbelt profile. When no mechanism exists the
// package says so and callers decide what that means.
//
// The package depends on the standard library and golang.org/x/sys only,
// so anything that starts processes (the Bash tool, hooks) can use it.
package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Kind names a confinement mechanism.
type Kind string

// The mechanisms, best first.
const (
	// KindLandlock is Landlock, seccomp and dropped capabilities, applied
	// to the thread that starts the command (Linux).
	KindLandlock Kind = "landlock"
	// KindBubblewrap runs the command through bwrap with a read-only view
	// of the file system (Linux without Landlock).
	KindBubblewrap Kind = "bwrap"
	// KindSeatbelt runs the command through sandbox-exec with a profile
	// that denies writes (macOS).
	KindSeatbelt Kind = "seatbelt"
	// KindNone means commands cannot be confined.
	KindNone Kind = "none"
)

// ChoiceEnv is the environment variable that picks a mechanism instead of
// the best one found. It exists to diagnose and test each mechanism; it
// can only choose a wall (or none, which callers treat as no sandbox), not
// loosen one.
const ChoiceEnv = "PONDER_SANDBOX"

// Options are the user's choices.
type Options struct {
	// Network lets confined commands open network connections (TCP, UDP
	// and Unix sockets). Off by default.
	Network bool
	// Choice is "", "auto", or a Kind to use instead of the best one
	// available; a mechanism that was asked for but does not work is an
	// error.
	Choice string
}

// Sandbox is the mechanism chosen for this process. It is safe for
// concurrent use.
type Sandbox struct {
	kind Kind
	opts Options
	// abi is the Landlock ABI version (0 when Landlock is not used).
	abi int
	// missing says why better mechanisms were not used.
	missing []string
	impl    confiner
}

// Confinement is what one confined command may do beyond reading.
type Confinement struct {
	// Ports are the TCP ports the command may connect to: those of the
	// fetches the permission rules allowed it (443 for an https URL).
	// With any, it may also open internet sockets, so that it can look
	// up names; the hosts it reaches are the permission rules' to judge.
	// Without sandbox.network, a confined command has no network else.
	Ports []uint16
	// Lookup says a fetch names a host that must be looked up, so the
	// command may also open UDP sockets for DNS. Where Landlock cannot
	// limit UDP (below ABI 10), such a command may send datagrams to any
	// host and port while it runs; without Lookup it opens no UDP socket.
	Lookup bool
	// Workspace, when set, lets the command write its workspace as the
	// policy says; without it the command writes only its scratch
	// directory. See WorkspaceAvailable.
	Workspace *Workspace
}

// confiner is one mechanism's way of wrapping a command.
type confiner interface {
	// prepare rewrites cmd to run confined with scratch as its only
	// writable directory. It returns the work to do on the starting
	// thread just before the command starts and the work to do once it
	// has started (either may be nil).
	prepare(cmd *exec.Cmd, scratch string, c Confinement) (restrict func() error, started func(), err error)
	// restricts lists what the mechanism enforces, for ponder doctor.
	restricts() []string
}

// New picks the best mechanism that works here, or the one opts.Choice
// names. The first call in a process also removes the scratch directories
// that ponder processes no longer running left behind.
func New(opts Options) (*Sandbox, error) {
	choice := strings.TrimSpace(strings.ToLower(opts.Choice))
	switch Kind(choice) {
	case "", "auto", KindLandlock, KindBubblewrap, KindSeatbelt, KindNone:
	default:
		return nil, fmt.Errorf("%s=%q: want landlock, bwrap, seatbelt or none", ChoiceEnv, opts.Choice)
	}
	staleOnce.Do(func() { removeStaleScratch(os.TempDir()) })
	s := &Sandbox{opts: opts}
	if Kind(choice) == KindNone {
		s.kind = KindNone
		s.missing = []string{"turned off by " + ChoiceEnv + "=none"}
		return s, nil
	}
	if err := detect(s, Kind(choice)); err != nil {
		return nil, err
	}
	return s, nil
}

// Kind is the mechanism in use; KindNone for a nil Sandbox.
func (s *Sandbox) Kind() Kind {
	if s == nil {
		return KindNone
	}
	return s.kind
}

// Available reports whether commands can be confined.
func (s *Sandbox) Available() bool { return s != nil && s.kind != KindNone }

// Status describes the sandbox for people: ponder doctor, start-up notes.
type Status struct {
	Kind Kind
	// ABI is the Landlock ABI version, 0 when Landlock is not in use.
	ABI int
	// Network says whether confined commands may use the network.
	Network bool
	// Restricts lists what a confined command cannot do.
	Restricts []string
	// Missing says why a better mechanism is not in use.
	Missing []string
	// PIDNamespaces says each confined command runs in a PID namespace of
	// its own, so that nothing it starts outlives it, even when ponder
	// itself is killed.
	PIDNamespaces bool
}

// Status reports what the sandbox does.
func (s *Sandbox) Status() Status {
	st := Status{Kind: s.kind, ABI: s.abi, Network: s.opts.Network, Missing: append([]string(nil), s.missing...)}
	if s.impl != nil {
		st.Restricts = s.impl.restricts()
	}
	st.PIDNamespaces = s.kind == KindBubblewrap || s.startsPIDNamespaces()
	return st
}

// Summary is the status in a few words, e.g. "landlock (ABI 7)".
func (st Status) Summary() string {
	switch {
	case st.Kind == KindLandlock:
		return fmt.Sprintf("landlock (ABI %d)", st.ABI)
	case st.Kind == KindNone:
		return "none"
	}
	return string(st.Kind)
}

// ErrUnavailable is returned by Start when a confined command is asked
// for and there is no sandbox.
var ErrUnavailable = errors.New("no sandbox is available to confine the command")

// StartWith starts cmd on a thread of its own that lives until the
// command ends (so that a parent-death signal set in cmd.SysProcAttr
// fires only when ponder itself goes), confined when o.Confine is not nil
// and kept from o.Deny either way. The command must not have been
// started; StartWith sets up its environment when confined, so set
// cmd.Env first. The returned Process must be waited for and then cleaned
// up, once nothing the command started is left running.
//
// A nil Sandbox starts unconfined commands and refuses confined ones.
// An unconfined command still starts without CAP_SYS_PTRACE (on Linux),
// so that even as root it cannot read ponder's memory; strace -p or gdb
// -p of processes started outside ponder need running outside it.
func (s *Sandbox) StartWith(cmd *exec.Cmd, o StartOptions) (*Process, error) {
	c := o.Confine
	if c == nil {
		restrict, err := withDeny(o.Deny, unconfinedRestrict)
		if err != nil {
			return nil, err
		}
		return startOnThread(cmd, restrict, "")
	}
	if s == nil || s.impl == nil {
		return nil, ErrUnavailable
	}
	scratch, err := makeScratch()
	if err != nil {
		return nil, fmt.Errorf("making the sandbox's scratch directory: %w", err)
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	if c.Workspace != nil {
		return s.startWorkspace(cmd, scratch, *c, o.Deny)
	}
	cmd.Env = scratchEnv(cmd.Env, scratch)
	restrict, started, err := s.impl.prepare(cmd, scratch, *c)
	if err == nil && s.kind == KindLandlock {
		restrict, err = withDeny(o.Deny, restrict)
	}
	if err != nil {
		_ = os.RemoveAll(scratch)
		return nil, err
	}
	p, err := startOnThread(cmd, restrict, scratch)
	if started != nil {
		started()
	}
	if err != nil {
		_ = os.RemoveAll(scratch)
		return nil, err
	}
	p.pidns = s.startsPIDNamespaces()
	return p, nil
}

// WorkspaceAvailable reports whether commands can be confined to a
// workspace (Confinement.Workspace) here, and if not, why.
func (s *Sandbox) WorkspaceAvailable() error {
	if s == nil || s.impl == nil {
		return ErrUnavailable
	}
	return s.workspaceSupported()
}

// startWorkspace starts a command confined to its workspace.
func (s *Sandbox) startWorkspace(cmd *exec.Cmd, scratch string, c Confinement, deny Deny) (*Process, error) {
	fail := func(err error) (*Process, error) {
		_ = os.RemoveAll(scratch)
		return nil, err
	}
	if err := s.workspaceSupported(); err != nil {
		return fail(err)
	}
	cmd.Env = workspaceEnv(cmd.Env, scratch, c.Workspace)
	missing := c.Workspace.MissingReadOnly()
	if err := s.prepareWorkspace(cmd, scratch, c, deny); err != nil {
		return fail(err)
	}
	p, err := startOnThread(cmd, unconfinedRestrict, scratch)
	if err != nil {
		return fail(err)
	}
	p.pidns = true
	p.missing, p.roots = missing, c.Workspace.writableRoots(scratch)
	return p, nil
}
