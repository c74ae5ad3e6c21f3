package builtin

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/internal/planbar"
	"github.com/ponder-agent/ponder/internal/proctree"
	"github.com/ponder-agent/ponder/internal/sandbox"
	"github.com/ponder-agent/ponder/internal/shellenv"
	"github.com/ponder-agent/ponder/internal/tool"
)

// errNoSandbox refuses a call the permission engine wants confined when
// there is no sandbox; the engine should have refused it already.
var errNoSandbox = errors.New("this command may only run inside the OS sandbox, and no sandbox is available, so it did not run")

// errNoWorkspace refuses a call the engine confines to its workspace
// when the tool was given no workspace policy.
var errNoWorkspace = errors.New("this command may only run confined to its workspace, and no workspace policy was given, so it did not run")

// startFailed is the result of a command that could not start.
func startFailed(err error) tool.Result {
	msg := err.Error()
	return tool.Errorf("%s%s.", strings.ToUpper(msg[:1]), msg[1:])
}

// shellRun is a started shell command: its process, the scope that
// protects it from orphan hunts, and the goroutine copying its output.
type shellRun struct {
	proc    *sandbox.Process
	pid     int
	scope   *proctree.Scope
	tracker *proctree.Tracker
	pipe    *os.File
	copied  chan struct{}
	// free is set for a command outside the sandbox, which plan mode
	// stops; shells holds it.
	free   *planbar.Run
	shells *Shells
	// setAside are files that decide what runs which a workspace command
	// created and the sandbox moved out of the way (see finish).
	setAside []string
}

// start runs the command in a session of its own (no controlling
// terminal, so nothing can type into or draw over ponder's), with empty
// standard input, both output streams on one pipe, and, when the engine
// ruled so, inside the sandbox.
func (c *bashCall) start(confine tool.Confinement, out io.Writer) (*shellRun, error) {
	if confine.Sandbox && !c.opts.Sandbox.Available() {
		return nil, errNoSandbox
	}
	var free *planbar.Run
	// A command confined to its workspace still writes the project, so
	// plan mode stops it like one outside the sandbox.
	if (!confine.Sandbox || confine.Workspace) && c.opts.Shells != nil {
		if free = c.opts.Shells.free.Admit(); free == nil {
			return nil, errBarred
		}
	}
	rd, wr, err := os.Pipe()
	if err != nil {
		c.release(free)
		return nil, fmt.Errorf("could not start %s: %v", c.opts.Shell, err)
	}
	cmd := exec.Command(c.opts.Shell, "-c", c.command)
	cmd.Dir = c.dir
	cmd.Env = shellenv.WithGitGuard(append(shellenv.Build(os.Environ(), c.opts.Environment), c.opts.Env...))
	// The mark a later ponder finds what the command leaves running by,
	// should this one be killed before it can stop it.
	cmd.Env = append(cmd.Env, c.opts.Processes.CommandEnv()...)
	cmd.Stdout, cmd.Stderr = wr, wr
	cmd.SysProcAttr = shellAttr()
	scope := c.opts.Processes.Begin()
	var in *sandbox.Confinement
	if confine.Sandbox {
		in = &sandbox.Confinement{Ports: confine.Ports, Lookup: confine.Lookup}
	}
	if confine.Workspace {
		if c.opts.Workspace == nil {
			rd.Close()
			wr.Close()
			scope.End()
			c.release(free)
			return nil, errNoWorkspace
		}
		in.Workspace = c.opts.Workspace()
	}
	deny := c.deny(confine.Sandbox)
	proc, err := c.opts.Sandbox.StartWith(cmd, sandbox.StartOptions{Confine: in, Deny: deny})
	wr.Close()
	if err != nil {
		rd.Close()
		scope.End()
		c.release(free)
		return nil, fmt.Errorf("could not start %s: %v", c.opts.Shell, err)
	}
	r := &shellRun{proc: proc, pid: proc.Pid(), scope: scope, tracker: c.opts.Processes, pipe: rd, copied: make(chan struct{}), free: free, shells: c.opts.Shells}
	scope.Keep(r.pid)
	if free != nil {
		free.Started(r.kill)
	}
	go func() {
		_, _ = io.Copy(out, rd)
		close(r.copied)
	}()
	return r, nil
}

// deny is what the kernel keeps the command from. A confined command
// writes only its scratch directory, so it gets every denied path. An
// unconfined one gets the denied paths for reading outside the project:
// a Landlock layer cannot let a command read back a file it creates in a
// directory on the way to a denied path (such as the project root for a
// denied .env), which would break builds; inside the project, the rules
// stop what a line names (cat .env, < .env, sed -i on a denied file).
func (c *bashCall) deny(confined bool) sandbox.Deny {
	if c.opts.Denied == nil {
		return sandbox.Deny{}
	}
	d := c.opts.Denied()
	if confined {
		return sandbox.Deny{Read: d.Read, Write: d.Write}
	}
	return sandbox.Deny{Read: d.ReadOutside}
}

// stop asks the command's process group to end, and after a grace period
// kills everything the command started.
func (r *shellRun) stop() {
	signalGroup(r.pid, false)
	if r.proc.OwnPIDNamespace() && !catchesTerm(r.pid) {
		// The shell is its namespace's first process, which drops a
		// SIGTERM it has no handler for; by default it would have ended,
		// so end it (and with it the namespace) as SIGTERM would.
		_ = r.proc.Kill()
	}
	grace := time.NewTimer(bashKillGrace)
	defer grace.Stop()
	select {
	case <-r.proc.Done():
	case <-grace.C:
	}
	r.tracker.KillSession(r.pid)
}

// finish waits for the shell, kills whatever it left running (its
// session, its group, their descendants, then orphans no other running
// command may own), waits for the output to end, and removes the
// sandbox's scratch directory. leftOpen says a process nobody could kill
// yet still holds the output pipe; its later output is dropped.
func (r *shellRun) finish() (err error, leftOpen bool) {
	err = r.proc.Wait()
	r.tracker.KillSession(r.pid)
	r.scope.End()
	grace := time.NewTimer(bashPipeGrace)
	defer grace.Stop()
	select {
	case <-r.copied:
	case <-grace.C:
		leftOpen = true
		r.pipe.Close()
		<-r.copied
	}
	r.pipe.Close()
	r.setAside = r.proc.SetAside()
	_ = r.proc.Cleanup()
	if r.free != nil {
		r.shells.free.Release(r.free)
	}
	return err, leftOpen
}

// release forgets an admitted command that did not start.
func (c *bashCall) release(f *planbar.Run) {
	if f != nil {
		c.opts.Shells.free.Release(f)
	}
}
