package builtin

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/shellenv"
	"github.com/ponder-agent/ponder/internal/tool"
)

//go:embed bash.md
var bashDoc string

const (
	bashDefaultTimeout = 2 * time.Minute
	bashMaxTimeout     = 10 * time.Minute
	// bashKillGrace is how long a command has to exit after SIGTERM
	// before its process group gets SIGKILL.
	bashKillGrace = 2 * time.Second
	// bashPipeGrace is how long Run waits, after the shell exits, for
	// processes it left behind to close the output pipe.
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
}

type bashInput struct {
	Command     string `json:"command" desc:"The shell command to run."`
	Description string `json:"description,omitempty" desc:"A few words saying what the command does, shown to the user (e.g. \"Run the unit tests\")."`
	Timeout     int    `json:"timeout,omitempty" desc:"Time limit in milliseconds (default 120000, at most 600000)."`
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
	return bashTool{Meta: tool.NewMeta[bashInput]("Bash", bashDoc, false), opts: opts}
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
	return &bashCall{opts: t.opts, dir: env.Dir, command: in.Command, description: in.Description, timeout: timeout}, nil
}

type bashCall struct {
	opts        BashOptions
	dir         string
	command     string
	description string
	timeout     time.Duration
}

func (c *bashCall) Access() permission.Access {
	return permission.Access{Tool: "Bash", Kind: permission.KindExec, Command: c.command}
}

func (c *bashCall) Run(ctx context.Context) tool.Result {
	out := newCappedOutput(bashMaxOutput)
	cmd := exec.Command(c.opts.Shell, "-c", c.command)
	cmd.Dir = c.dir
	cmd.Env = append(shellenv.Build(os.Environ(), c.opts.Environment), c.opts.Env...)
	cmd.Stdout, cmd.Stderr = out, out // one pipe: output stays in order
	cmd.WaitDelay = bashPipeGrace
	setProcessGroup(cmd)
	if err := ctx.Err(); err != nil {
		return tool.Errorf("Command was interrupted before it started.")
	}
	if err := cmd.Start(); err != nil {
		return tool.Errorf("Could not start %s: %v", c.opts.Shell, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timer := time.NewTimer(c.timeout)
	defer timer.Stop()

	var err error
	var stopped string
	select {
	case err = <-done:
	case <-timer.C:
		stopped = fmt.Sprintf("Command timed out after %s and was stopped.", formatDuration(c.timeout))
		err = stopGroup(cmd, done)
	case <-ctx.Done():
		stopped = "Command was interrupted."
		err = stopGroup(cmd, done)
	}
	return c.result(out.String(), err, stopped)
}

// stopGroup ends the command's whole process group: SIGTERM first, then
// SIGKILL for whatever is left after a grace period. It returns Wait's
// result.
func stopGroup(cmd *exec.Cmd, done <-chan error) error {
	signalGroup(cmd, false)
	grace := time.NewTimer(bashKillGrace)
	defer grace.Stop()
	var err error
	select {
	case err = <-done:
	case <-grace.C:
		signalGroup(cmd, true)
		err = <-done
	}
	// Members that outlived the shell, or ignored SIGTERM, go now.
	signalGroup(cmd, true)
	return err
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
		b.WriteString("\n\n(The command finished, but a process it started in the background kept its output open; later output of that process is not shown.)")
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
