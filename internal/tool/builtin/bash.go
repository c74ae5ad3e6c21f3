package builtin

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/proctree"
	"github.com/ponder-agent/ponder/internal/sandbox"
	"github.com/ponder-agent/ponder/internal/shellenv"
	"github.com/ponder-agent/ponder/internal/tool"
)

//go:embed bash.md
var bashDoc string

const (
	bashDefaultTimeout = 2 * time.Minute
	bashMaxTimeout     = 10 * time.Minute
	// bashKillGrace is how long a command has to exit after SIGTERM
	// before everything it started gets SIGKILL.
	bashKillGrace = 2 * time.Second
	// bashPipeGrace is how long Run waits, once everything the command
	// started has been killed, for the output pipe to close.
	bashPipeGrace = time.Second
	// bashMaxOutput is the number of characters of output kept: half
	// from the start and half from the end.
	bashMaxOutput = 30_000
)

// BashOptions configures the Bash tool.
type BashOptions struct {
	// Env holds extra environment variables ("KEY=value") for commands,
	// added to what Environment lets through of ponder's own.
	Env []string
	// Environment decides what of ponder's environment commands get;
	// ponder's credentials never pass.
	Environment shellenv.Policy
	// DefaultTimeout applies when a call sets none; two minutes when zero.
	DefaultTimeout time.Duration
	// MaxTimeout caps what a call may ask for; ten minutes when zero.
	MaxTimeout time.Duration
	// Shell is the shell program, run as SHELL -c COMMAND; "bash" when
	// empty.
	Shell string
	// Sandbox confines the calls the permission engine says must be
	// confined (tool.ConfinementOf). Without one, such calls are refused.
	Sandbox *sandbox.Sandbox
	// Processes ends whatever a command leaves running; the process's
	// default tracker when nil.
	Processes *proctree.Tracker
	// Shells holds the commands run in the background; without it,
	// run_in_background is refused.
	Shells *Shells
	// Denied returns the paths the deny rules cover, which the kernel
	// keeps every command from (sandbox.Deny); nil for none.
	Denied func() permission.DeniedPaths
	// Workspace returns the policy of commands the engine confines to
	// their workspace (tool.Confinement.Workspace); without it such
	// commands are refused.
	Workspace func() *sandbox.Workspace
}

type bashInput struct {
	Command         string `json:"command" desc:"The shell command to run."`
	Description     string `json:"description,omitempty" desc:"A few words saying what the command does, shown to the user (e.g. \"Run the unit tests\")."`
	Timeout         int    `json:"timeout,omitempty" desc:"Time limit in milliseconds (default 120000, at most 600000)."`
	RunInBackground bool   `json:"run_in_background,omitempty" desc:"Start the command and return at once; read its output later with BashOutput and stop it with KillShell."`
	OutsideSandbox  bool   `json:"outside_sandbox,omitempty" desc:"Run the command outside the OS sandbox. Only after a run inside it failed because the sandbox withheld something the command needs (a write it keeps read-only, the network); the user is asked."`
}

type bashTool struct {
	tool.Meta
	opts BashOptions
}

// NewBash returns the Bash tool, which runs shell commands in the project
// directory.
func NewBash(opts BashOptions) tool.Tool {
	if opts.DefaultTimeout <= 0 {
		opts.DefaultTimeout = bashDefaultTimeout
	}
	if opts.MaxTimeout <= 0 {
		opts.MaxTimeout = bashMaxTimeout
	}
	opts.DefaultTimeout = min(opts.DefaultTimeout, opts.MaxTimeout)
	if opts.Shell == "" {
		opts.Shell = "bash"
	}
	if opts.Processes == nil {
		opts.Processes = proctree.Default()
	}
	return bashTool{Meta: tool.NewMeta[bashInput]("Bash", permission.KindExec, bashDoc, false), opts: opts}
}

func (t bashTool) Prepare(env *tool.Env, input json.RawMessage) (tool.Call, error) {
	in, err := tool.Decode[bashInput](input)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.Command) == "" {
		return nil, errors.New("command is required")
	}
	timeout := t.opts.DefaultTimeout
	if in.Timeout > 0 {
		timeout = min(time.Duration(in.Timeout)*time.Millisecond, t.opts.MaxTimeout)
	}
	return &bashCall{opts: t.opts, dir: env.Dir, command: in.Command, description: in.Description, timeout: timeout,
		background: in.RunInBackground, outside: in.OutsideSandbox, changes: env.Changes}, nil
}

type bashCall struct {
	opts        BashOptions
	dir         string
	command     string
	description string
	timeout     time.Duration
	background  bool
	outside     bool
	changes     tool.ChangeRecorder
}

func (c *bashCall) Access() permission.Access {
	return permission.Access{Command: c.command, Background: c.background, Dir: c.dir, Unsandboxed: c.outside}
}

func (c *bashCall) Run(ctx context.Context) tool.Result {
	if err := ctx.Err(); err != nil {
		return tool.Errorf("Command was interrupted before it started.")
	}
	confine := tool.ConfinementOf(ctx)
	if (!confine.Sandbox || confine.Workspace) && c.changes != nil {
		// Outside the sandbox the command may change any file; say so
		// before it starts, so even one that never returns is named.
		c.changes.RanCommand(c.command)
	}
	if c.background {
		return c.runInBackground(confine, tool.BackgroundEnd(ctx))
	}
	out := newCappedOutput(bashMaxOutput)
	r, err := c.start(confine, out)
	if err != nil {
		return startFailed(err)
	}
	timer := time.NewTimer(c.timeout)
	defer timer.Stop()
	var stopped string
	select {
	case <-r.proc.Done():
	case <-timer.C:
		stopped = fmt.Sprintf("Command timed out after %s and was stopped.", formatDuration(c.timeout))
		r.stop()
	case <-ctx.Done():
		stopped = "Command was interrupted."
		r.stop()
	}
	werr, leftOpen := r.finish()
	if r.free != nil && r.free.Stopped() {
		stopped = "Command was stopped because plan mode began: while plan mode is on, commands run only inside the OS sandbox."
	}
	if leftOpen && werr == nil && stopped == "" {
		werr = exec.ErrWaitDelay
	}
	res := c.result(out.String(), werr, stopped)
	if confine.Workspace && res.IsError && stopped == "" {
		res.Content += withheldNote(out.String())
	}
	res.Content += setAsideNote(r.setAside)
	return res
}

func (c *bashCall) result(output string, err error, stopped string) tool.Result {
	var b strings.Builder
	if strings.TrimSpace(output) == "" {
		b.WriteString("(no output)")
	} else {
		b.WriteString(strings.TrimRight(output, "\n"))
	}
	res := tool.Result{Summary: c.summary()}
	var exitErr *exec.ExitError
	switch {
	case stopped != "":
		fmt.Fprintf(&b, "\n\n%s", stopped)
		res.IsError = true
	case errors.As(err, &exitErr):
		if code := exitErr.ExitCode(); code >= 0 {
			fmt.Fprintf(&b, "\n\nExit code %d", code)
		} else {
			fmt.Fprintf(&b, "\n\nCommand was killed (%s)", exitErr.ProcessState)
		}
		res.IsError = true
	case errors.Is(err, exec.ErrWaitDelay):
		b.WriteString("\n\n(The command finished, but a process it started kept its output open and could not be stopped yet; later output of that process is not shown.)")
	case err != nil:
		fmt.Fprintf(&b, "\n\nCommand failed: %v", err)
		res.IsError = true
	}
	res.Content = validUTF8(b.String())
	return res
}

func (c *bashCall) summary() string {
	if d := strings.TrimSpace(c.description); d != "" {
		return d
	}
	line, _, _ := strings.Cut(strings.TrimSpace(c.command), "\n")
	line, _ = cutRunes(line, 60)
	return "Ran " + line
}

// formatDuration prints whole seconds plainly and keeps milliseconds
// otherwise.
func formatDuration(d time.Duration) string {
	if d%time.Second == 0 {
		return d.String()
	}
	return d.Round(time.Millisecond).String()
}
