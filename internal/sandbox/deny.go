package sandbox

import "os/exec"

// Deny lists what no command may touch, whatever else it may do: the
// kernel keeps every command ponder starts, confined or not, from reading
// the files and directories in Read and from writing those in Write
// (their contents: changing a file in place, truncating it, or creating
// or changing anything inside a listed directory). The paths are plain
// absolute paths with symbolic links resolved; what they are for is the
// caller's business.
//
// On Linux it is a Landlock layer of its own on the starting thread. It
// grants the rights it handles everywhere but on the listed paths: beneath
// every entry of every directory on the way from / to a listed path, and
// nothing on the path itself. Two consequences follow. A file created
// while the command runs directly in a directory on that way (the project
// root, say, when a file in it is listed) gets no grant, so that command
// cannot read (or write) it back; and another name of a listed file (a
// hard link) gets no grant where it is seen, since a grant to it would be
// a grant to the listed file. Without Landlock, or for a command confined
// by bubblewrap, there is no layer: the permission checks are then the
// only guard.
type Deny struct {
	Read, Write []string
}

// empty reports whether there is nothing to deny.
func (d Deny) empty() bool { return len(d.Read) == 0 && len(d.Write) == 0 }

// StartOptions say how to start one command.
type StartOptions struct {
	// Confine runs the command in the sandbox; nil runs it unconfined.
	Confine *Confinement
	// Deny is kept from the command either way.
	Deny Deny
}

// Start starts cmd, confined as c says when c is not nil; see StartWith.
func (s *Sandbox) Start(cmd *exec.Cmd, c *Confinement) (*Process, error) {
	return s.StartWith(cmd, StartOptions{Confine: c})
}

// DenyEnforced reports whether the kernel enforces Deny for commands
// started confined or not (not for commands bubblewrap confines, and not
// without Landlock).
func (s *Sandbox) DenyEnforced(confined bool) bool {
	if confined && s.Kind() != KindLandlock {
		return false
	}
	return denySupported()
}

// withDeny returns restrict preceded by the deny layer for d, when there
// is one to add.
func withDeny(d Deny, restrict func() error) (func() error, error) {
	if d.empty() || !denySupported() {
		return restrict, nil
	}
	layer, err := denyLayer(d)
	if err != nil {
		return nil, err
	}
	return func() error {
		if err := layer(); err != nil {
			return err
		}
		if restrict != nil {
			return restrict()
		}
		return nil
	}, nil
}
