package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
)

// Process is a started command.
type Process struct {
	cmd     *exec.Cmd
	done    chan struct{}
	err     error
	scratch string
	// pidns says the command is the first process of a PID namespace
	// of its own.
	pidns bool
	// missing are the read-only paths of a workspace command that did
	// not exist when it started, and roots its writable roots.
	missing, roots []string
}

// SetAside moves out of the way what a workspace command created where
// its policy names a read-only path that did not exist when it started
// (no binding could hold such a path): each such file or directory is
// renamed NAME.ponder-withheld-N. It returns the paths so created. Call
// it after the command and everything it started have ended.
func (p *Process) SetAside() []string { return setAside(p.missing, p.roots) }

// OwnPIDNamespace reports whether the command is the first process of a
// PID namespace of its own. Such a process gets no signal from outside
// that it has no handler for, SIGKILL and SIGSTOP apart: a SIGTERM meant
// to end it is dropped unless it asked for one.
func (p *Process) OwnPIDNamespace() bool { return p.pidns }

// Pid is the command's process id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Done is closed once the command has exited and been reaped.
func (p *Process) Done() <-chan struct{} { return p.done }

// Wait waits for the command to exit and returns what exec.Cmd.Wait
// returned.
func (p *Process) Wait() error {
	<-p.done
	return p.err
}

// Kill sends SIGKILL to the command (not to what it started), through
// the handle the start returned, so that a pid reused after the command
// was reaped is never hit.
func (p *Process) Kill() error { return p.cmd.Process.Kill() }

// Scratch is the private writable directory of a confined command, or "".
func (p *Process) Scratch() string { return p.scratch }

// Cleanup removes the scratch directory. Call it after the command and
// everything it started have ended; a process still writing there could
// otherwise leave files behind.
func (p *Process) Cleanup() error {
	if p.scratch == "" {
		return nil
	}
	if err := os.RemoveAll(p.scratch); err != nil {
		return fmt.Errorf("removing the sandbox's scratch directory: %w", err)
	}
	return nil
}

// startOnThread starts cmd from a goroutine locked to its own OS thread,
// after running restrict on that thread, and waits for the command there.
//
// Everything restrict does (Landlock, no_new_privs, seccomp without
// TSYNC, capabilities) applies to the calling thread only, and a child
// forked from the thread inherits it. The Go runtime never starts a new
// thread from a locked one (it hands that to its template thread), so
// nothing leaks to other goroutines. When restrict ran, the goroutine ends
// still locked, so the runtime destroys the tainted thread instead of
// reusing it. The thread lives as long as the command, which is also what
// a parent-death signal needs: Linux sends it when the creating thread
// exits, not the process.
func startOnThread(cmd *exec.Cmd, restrict func() error, scratch string) (*Process, error) {
	p := &Process{cmd: cmd, done: make(chan struct{}), scratch: scratch}
	started := make(chan error, 1)
	go p.run(restrict, started)
	if err := <-started; err != nil {
		return nil, err
	}
	return p, nil
}

// run is the goroutine of startOnThread.
func (p *Process) run(restrict func() error, started chan<- error) {
	runtime.LockOSThread()
	if restrict == nil {
		// A thread that was never restricted goes back to the pool.
		defer runtime.UnlockOSThread()
	} else if onMainThread() {
		// The runtime never ends the main thread: it would park it for
		// good, still restricted. Hold it while another goroutine, which
		// therefore cannot run on it, does the work.
		done := make(chan struct{})
		go func() {
			defer close(done)
			p.run(restrict, started)
		}()
		<-done
		runtime.UnlockOSThread()
		return
	}
	if restrict != nil {
		if err := restrict(); err != nil {
			started <- fmt.Errorf("confining the command: %w", err)
			return
		}
	}
	if err := startMappable(p.cmd, p.cmd.Start); err != nil {
		started <- err
		return
	}
	started <- nil
	p.err = p.cmd.Wait()
	close(p.done)
}
