// Package cmdhook runs the command hooks of the settings files: a shell
// command told about the moment as JSON on its standard input, whose exit
// status and output are its answer, in the shape other coding agents use.
//
// A hook runs with sh -c in the project root, with the environment ponder
// gives commands (without its credentials) plus CLAUDE_PROJECT_DIR and
// PONDER_PROJECT_DIR. While plan mode is on it runs inside the OS sandbox,
// as plan mode's commands do: it can read, but it cannot change the
// project or anything else outside its scratch directory. Every process it
// starts is registered with the process tracker and killed, with its whole
// process group and descendants, when the hook ends or runs out of time.
//
// What it answers:
//
//   - exit 0: standard output that is a JSON object is read (continue,
//     stopReason, systemMessage, decision and reason, hookSpecificOutput
//     with permissionDecision, permissionDecisionReason and
//     additionalContext); plain output of UserPromptSubmit and
//     SessionStart hooks is context for the model.
//   - exit 2: a block, standard error being the reason (a refused call, a
//     blocked prompt, a turn that goes on, words for the model with a
//     result); for moments that cannot be blocked, an error the user sees.
//   - any other status: an error the user sees, with the first lines of
//     standard error; the hook has no opinion.
package cmdhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/planbar"
	"github.com/ponder-agent/ponder/internal/proctree"
	"github.com/ponder-agent/ponder/internal/sandbox"
)

// Options describe how to run one command hook.
type Options struct {
	// Command is the shell line, run as Shell -c Command.
	Command string
	// Shell is the shell program; "sh" when empty.
	Shell string
	// Dir is the project root: where the hook runs, and the value of
	// CLAUDE_PROJECT_DIR and PONDER_PROJECT_DIR.
	Dir string
	// Env is the environment the hook starts with; the project variables
	// are added to it.
	Env []string
	// Confine reports whether a run starting now must be confined (plan
	// mode is on); nil never confines.
	Confine func() bool
	// Sandbox confines the runs Confine asks to; without one they do not
	// run.
	Sandbox *sandbox.Sandbox
	// Deny returns what the kernel keeps the hook from, confined or not;
	// nil for nothing.
	Deny func(confined bool) sandbox.Deny
	// Processes tracks what the hook starts; the process's tracker when
	// nil.
	Processes *proctree.Tracker
	// Free is the session's record of processes running outside the
	// sandbox, which plan mode stops as it begins (a PostToolUse hook of
	// a parallel call, a Notification hook of the question that turned
	// plan mode on); nil for none. While it is raised, hooks that would
	// start outside start inside the sandbox instead.
	Free *planbar.Bar
}

// Hook is one command hook. It implements hooks.Hook.
type Hook struct {
	opts Options
}

// New returns the hook o describes.
func New(o Options) *Hook {
	if o.Shell == "" {
		o.Shell = "sh"
	}
	if o.Processes == nil {
		o.Processes = proctree.Default()
	}
	return &Hook{opts: o}
}

// Bounds of what is kept of a hook's output. Output beyond them is read
// and dropped, so that a hook never blocks on a full pipe.
const (
	// maxStdout bounds the standard output that is kept (and parsed).
	maxStdout = 256 << 10
	// maxStderr bounds the standard error that is kept.
	maxStderr = 64 << 10
	// maxText bounds what of a hook's words reaches the model or the
	// user as a reason or context.
	maxText = 10_000
	// errorLines is how many lines of standard error a failure shows.
	errorLines = 5
	// pipeGrace is how long the output may stay open once the hook and
	// everything it started were killed.
	pipeGrace = 2 * time.Second
)

// ErrNoSandbox says a hook was not run because it had to be confined and
// there is no sandbox.
var ErrNoSandbox = errors.New("plan mode is on and no OS sandbox is available to confine the hook, so it did not run")

// Run runs the command with in as JSON on its standard input and turns
// what it did into an answer.
func (h *Hook) Run(ctx context.Context, in event.HookInput) (event.HookOutput, error) {
	input, err := wireInput(in)
	if err != nil {
		return event.HookOutput{}, h.fail(err)
	}
	res, err := h.exec(ctx, input)
	if err != nil {
		return event.HookOutput{}, h.fail(err)
	}
	out, err := answer(in.Event, res)
	if err != nil {
		return event.HookOutput{}, h.fail(err)
	}
	return out, nil
}

// wireInput is what a hook reads on its standard input: the input in its
// JSON field names, except that a failed call's result is its "error"
// (PostToolUseFailure), as other agents' hooks expect.
func wireInput(in event.HookInput) ([]byte, error) {
	if in.Event != event.HookPostToolUseFailure {
		return json.Marshal(in)
	}
	data, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	m["error"] = in.ToolResponse
	delete(m, "tool_response")
	delete(m, "tool_failed")
	return json.Marshal(m)
}

// fail names the hook in an error.
func (h *Hook) fail(err error) error {
	return fmt.Errorf("%s: %w", clip(h.opts.Command, 60), err)
}

// result is how a run ended.
type result struct {
	code           int
	stdout, stderr []byte
}

// exec runs the command to its end, or until ctx ends, and kills whatever
// it left running.
func (h *Hook) exec(ctx context.Context, input []byte) (result, error) {
	confined := h.opts.Confine != nil && h.opts.Confine()
	var free *planbar.Run
	switch {
	case confined:
	case h.opts.Free == nil:
		free = &planbar.Run{}
	default:
		// Plan mode may have begun since Confine answered: then the
		// bar says so, and the hook is confined after all.
		if free = h.opts.Free.Admit(); free == nil {
			confined = true
		} else {
			defer h.opts.Free.Release(free)
		}
	}
	if confined && !h.opts.Sandbox.Available() {
		return result{}, ErrNoSandbox
	}
	if err := ctx.Err(); err != nil {
		return result{}, err
	}
	var closers []*os.File
	closeAll := func() {
		for _, f := range closers {
			f.Close()
		}
	}
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			closers = append(closers, r, w)
		}
		return r, w, err
	}
	inR, inW, err := pipe()
	if err != nil {
		return result{}, err
	}
	outR, outW, err := pipe()
	if err != nil {
		closeAll()
		return result{}, err
	}
	errR, errW, err := pipe()
	if err != nil {
		closeAll()
		return result{}, err
	}
	defer closeAll()

	cmd := exec.Command(h.opts.Shell, "-c", h.opts.Command)
	cmd.Dir = h.opts.Dir
	cmd.Env = append(append([]string(nil), h.opts.Env...), "CLAUDE_PROJECT_DIR="+h.opts.Dir, "PONDER_PROJECT_DIR="+h.opts.Dir)
	// The mark a later ponder finds what the hook leaves running by.
	cmd.Env = append(cmd.Env, h.opts.Processes.CommandEnv()...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = procAttr()
	var start sandbox.StartOptions
	if confined {
		start.Confine = &sandbox.Confinement{}
	}
	if h.opts.Deny != nil {
		start.Deny = h.opts.Deny(confined)
	}
	scope := h.opts.Processes.Begin()
	proc, err := h.opts.Sandbox.StartWith(cmd, start)
	// The child holds its ends now; ponder keeps only its own.
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		scope.End()
		return result{}, fmt.Errorf("could not start: %v", err)
	}
	pid := proc.Pid()
	scope.Keep(pid)
	if free != nil {
		free.Started(func() {
			select {
			case <-proc.Done():
				// Ended and reaped: its pid may be another's by now,
				// and the run kills what it left behind itself.
				return
			default:
			}
			h.opts.Processes.KillSession(pid)
			_ = proc.Kill()
		})
	}

	go func() {
		_, _ = inW.Write(input)
		inW.Close()
	}()
	stdout, stderr := &capped{max: maxStdout}, &capped{max: maxStderr}
	outDone, errDone := drain(outR, stdout), drain(errR, stderr)

	var stopped error
	select {
	case <-proc.Done():
	case <-ctx.Done():
		stopped = ctx.Err()
		h.opts.Processes.KillSession(pid)
		_ = proc.Kill()
	}
	waitErr := proc.Wait()
	h.opts.Processes.KillSession(pid)
	scope.End()
	grace := time.NewTimer(pipeGrace)
	defer grace.Stop()
	for _, done := range []chan struct{}{outDone, errDone} {
		select {
		case <-done:
		case <-grace.C:
			// A process nobody could kill holds the pipe: stop reading.
			outR.Close()
			errR.Close()
			<-done
		}
	}
	_ = proc.Cleanup()
	if free != nil && free.Stopped() {
		return result{}, errors.New("stopped because plan mode began: while plan mode is on, hooks run only inside the OS sandbox")
	}
	if stopped != nil {
		if errors.Is(stopped, context.DeadlineExceeded) {
			return result{}, errors.New("timed out; the hook and what it started were killed")
		}
		return result{}, errors.New("interrupted; the hook and what it started were killed")
	}
	res := result{stdout: stdout.buf.Bytes(), stderr: stderr.buf.Bytes()}
	var exit *exec.ExitError
	switch {
	case waitErr == nil:
	case errors.As(waitErr, &exit):
		res.code = exit.ExitCode()
		if res.code < 0 {
			return result{}, fmt.Errorf("killed by a signal (%v)", waitErr)
		}
	default:
		return result{}, waitErr
	}
	return res, nil
}

// capped keeps the first max bytes written to it and drops the rest.
type capped struct {
	buf bytes.Buffer
	max int
	cut bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(room, len(p))])
	}
	if c.buf.Len()+len(p) > c.max {
		c.cut = true
	}
	return len(p), nil
}

// drain copies r into w until r ends, and closes the returned channel.
func drain(r io.Reader, w io.Writer) chan struct{} {
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(w, r)
		close(done)
	}()
	return done
}

// clip shortens s to at most n runes, marking the cut.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// firstLines is the first n lines of s, marking what was left out.
func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], fmt.Sprintf("(%d more lines)", len(lines)-n))
	}
	return clip(strings.Join(lines, "\n"), 2000)
}
