// Package headless runs ponder without a terminal UI (ponder -p): it sends
// a prompt, answers or relays questions, prints the outcome as text, one
// JSON object, or a stream of JSON lines, and returns the exit code.
package headless

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
)

// Options configure a headless run.
type Options struct {
	App          app.Options
	Prompt       string
	OutputFormat string
	InputFormat  string
	// ApprovePlan and RejectPlan answer a pending approval on resume.
	ApprovePlan string
	RejectPlan  *string
	// RewindTo, with Rewind, rewinds the resumed session before anything
	// else (see rewind.go).
	RewindTo string
	Rewind   string
	// Annotations go with RejectPlan: comments on lines of the plan.
	Annotations []event.Annotation
	// ImplementModel goes with ApprovePlan: the model that implements
	// the plan (--model), recorded so the session keeps it.
	ImplementModel string
	Stdin          io.Reader
	Stdout         io.Writer
	Stderr         io.Writer

	// IncludePartial prints stream_event lines as answers stream;
	// ReplayUser echoes the host's user messages.
	IncludePartial bool
	ReplayUser     bool
	// HostAnswers says the host asked to answer permission questions
	// over stdio (--permission-prompt-tool stdio): it speaks the Claude
	// Agent SDK's dialect from the start.
	HostAnswers bool
	// Version is ponder's version, for the hosts that ask.
	Version string
}

// Run performs the run and returns the exit code.
func Run(ctx context.Context, o Options) int {
	start := time.Now()
	w := &writer{out: o.Stdout, errOut: o.Stderr, format: o.OutputFormat, version: o.Version, partial: o.IncludePartial, replay: o.ReplayUser}
	w.sdk.Store(o.HostAnswers)
	fail := func(code int, err error) int {
		if o.OutputFormat == FormatText {
			fmt.Fprintln(o.Stderr, "ponder: "+err.Error())
		} else {
			w.line(Result{Type: "result", Subtype: w.errorSubtype(), IsError: true, SessionID: w.sessionID, Error: err.Error(), Result: err.Error(),
				Errors: []string{err.Error()}, PermissionDenials: []denial{}, UUID: newUUID()})
			fmt.Fprintln(o.Stderr, "ponder: "+err.Error())
		}
		return code
	}
	streaming := o.InputFormat == FormatStreamJSON
	var ctl *control
	opts := o.App
	// With a control channel the host answers questions; without one,
	// plan approvals follow opts.PlanApproval and nothing else is answered.
	opts.Interactive = streaming
	// The channel also carries the messages of the host's own MCP
	// servers (type sdk).
	opts.HostMCP = streaming
	opts.Sink = func(e event.Event) {
		if ctl != nil {
			switch e := e.(type) {
			case event.QuestionAsked:
				ctl.noteQuestion(e.Question)
			case event.QuestionClosed:
				ctl.forgetQuestion(e.ID)
			}
		}
		w.emit(e)
	}
	a, err := app.New(opts)
	if err != nil {
		return fail(app.ExitCode(err), err)
	}
	defer a.Close()
	if streaming {
		ctl = newControl(a, w)
	}
	a.SetTaskHint(o.Prompt)
	if err := a.Start(); err != nil {
		return fail(app.ExitCode(err), err)
	}

	r := runner{a: a, w: w, o: o, start: start}
	if o.RewindTo != "" {
		if code, done := r.rewind(); done {
			return code
		}
	}
	if o.ApprovePlan != "" || o.RejectPlan != nil {
		ans := event.Answer{Option: o.ApprovePlan, Model: o.ImplementModel}
		if o.RejectPlan != nil {
			ans = event.Answer{Option: event.OptionReject, Feedback: *o.RejectPlan, Annotations: o.Annotations}
		}
		res, err := a.AnswerPending(ctx, ans)
		if code, done := r.report(res, err, o.Prompt == "" && !streaming); done {
			return code
		}
	}
	if !streaming {
		if strings.TrimSpace(o.Prompt) == "" {
			if o.ApprovePlan != "" || o.RejectPlan != nil {
				return app.ExitOK
			}
			return fail(app.ExitUsage, errors.New("no prompt: give one as an argument or on standard input"))
		}
		res, err := a.Send(ctx, o.Prompt)
		res, err = waitTeam(ctx, a, res, err)
		code, _ := r.report(res, err, true)
		return code
	}

	a.AttachMCPHost(ctl.calls.mcp)
	go ctl.read(o.Stdin)
	if wake := a.TeamWake(); wake != nil {
		// Messages of the team start turns of their own, queued
		// with the host's messages.
		go func() {
			for {
				select {
				case <-ctx.Done():
					return
				case <-wake:
					ctl.input.push(work{team: true})
				}
			}
		}()
	}
	code := app.ExitOK
	if a.HasPendingPlan() {
		// A plan left waiting by an earlier run: ask the host now.
		res, err := a.AskPending(ctx)
		code, _ = r.report(res, err, true)
	}
	if strings.TrimSpace(o.Prompt) != "" {
		code = r.turn(ctx, ctl, o.Prompt)
	}
	for ctx.Err() == nil {
		w, more := ctl.input.next(ctx)
		if !more {
			break
		}
		if w.team {
			if c, ran := r.teamTurn(ctx, ctl); ran {
				code = c
			}
			continue
		}
		if w.compactID != "" {
			ctl.reply(w.compactID, a.Compact(ctx, w.instructions))
			continue
		}
		code = r.turn(ctx, ctl, w.text, w.images...)
	}
	if ctx.Err() != nil {
		// A signal ends the run even while the host keeps its end of
		// standard input open, at once, and as a failure: what the host
		// asked for did not all happen. A turn it cut short has said so.
		if !r.cut {
			r.interrupted()
		}
		return app.ExitFailure
	}
	if w.sdk.Load() {
		// The SDK's hosts read how each turn ended from its result; an
		// exit status other than 0 means ponder itself failed.
		return app.ExitOK
	}
	return code
}

// interrupted reports a run a signal ended between turns.
func (r *runner) interrupted() {
	r.w.line(Result{Type: "result", Subtype: r.w.errorSubtype(), IsError: true, SessionID: r.a.ID(), Result: "interrupted", Error: "interrupted",
		Mode: r.a.Mode(), DurationMS: time.Since(r.start).Milliseconds(), Errors: []string{"interrupted"}, PermissionDenials: r.w.takeDenials(), UUID: newUUID()})
	fmt.Fprintln(r.o.Stderr, "ponder: interrupted")
}

// errorSubtype is the subtype of a failed turn's result: "error" for
// ponder's hosts, the SDK's name for its own.
func (w *writer) errorSubtype() string {
	if w.sdk.Load() {
		return "error_during_execution"
	}
	return "error"
}

// runner reports turns.
type runner struct {
	a     *app.App
	w     *writer
	o     Options
	start time.Time
	// cut says a turn was reported as interrupted.
	cut bool
	// turnStart is when the turn being reported began.
	turnStart time.Time
}

// turn runs one stream-json input message, interruptible by the host.
func (r *runner) turn(ctx context.Context, ctl *control, text string, images ...app.Image) int {
	r.turnStart = time.Now()
	tctx, cancel := context.WithCancel(ctx)
	ctl.setInterrupt(cancel)
	res, err := r.a.SendImages(tctx, text, images)
	ctl.setInterrupt(nil)
	cancel()
	code, _ := r.report(res, err, true)
	return code
}

// teamTurn runs a turn for the messages of the team that wait, if any.
func (r *runner) teamTurn(ctx context.Context, ctl *control) (int, bool) {
	tctx, cancel := context.WithCancel(ctx)
	ctl.setInterrupt(cancel)
	res, ran, err := r.a.SendTeam(tctx)
	ctl.setInterrupt(nil)
	cancel()
	if !ran {
		return 0, false
	}
	code, _ := r.report(res, err, true)
	return code, true
}

// report prints how a turn ended and returns the exit code. final says
// whether this is the last thing the run does; a successful answer to a
// pending approval followed by a prompt is not reported on its own.
func (r *runner) report(res app.TurnResult, err error, final bool) (int, bool) {
	a, w := r.a, r.w
	began := r.turnStart
	if began.IsZero() {
		began = r.start
	}
	out := Result{Type: "result", Subtype: "success", SessionID: a.ID(), Result: res.Text, Mode: a.Mode(),
		NumTurns: res.Requests, DurationMS: time.Since(r.start).Milliseconds(), Usage: usageOf(res.Usage), Turn: res.Turn,
		DurationAPIMS: time.Since(began).Milliseconds(), Errors: []string{}, UUID: newUUID()}
	if res.StopReason != "" {
		stop := res.StopReason
		out.StopReason = &stop
	}
	if _, ok := a.PlanText(); ok {
		out.PlanFile = a.PlanFile()
	}
	code := app.ExitOK
	switch {
	case err != nil:
		out.Subtype, out.IsError, out.Error, code = w.errorSubtype(), true, err.Error(), app.ExitCode(err)
		if out.Result == "" {
			out.Result = err.Error()
		}
	case res.StopReason == app.StopPlanPending:
		out.Subtype = "plan_pending"
		out.Plan, out.PlanFile, out.Permissions = res.Plan, res.PlanFile, res.Permissions
	case res.StopReason == app.StopMaxTurns:
		out.Subtype, out.IsError, code = "error_max_turns", true, app.ExitFailure
		out.Error = fmt.Sprintf("stopped after %d model requests (--max-turns)", res.Requests)
	case res.StopReason == app.StopInterrupted:
		out.Subtype, out.IsError, code = w.errorSubtype(), true, app.ExitFailure
		out.Error = "interrupted"
		r.cut = true
	}
	if out.Error != "" {
		out.Errors = []string{out.Error}
	}
	if !final && code == app.ExitOK && out.Subtype == "success" {
		return code, false
	}
	out.PermissionDenials = w.takeDenials()
	_, window := a.ContextUsage()
	out.TotalCostUSD, out.ModelUsage = a.CostUSD(), modelUsageOf(a.Usage(), window)
	switch r.o.OutputFormat {
	case FormatJSON, FormatStreamJSON:
		w.line(out)
		if out.IsError {
			fmt.Fprintln(r.o.Stderr, "ponder: "+out.Error)
		}
	default:
		r.text(out)
	}
	return code, true
}

// text prints the outcome for a person: the answer on standard output,
// problems on standard error.
func (r *runner) text(out Result) {
	switch {
	case out.Subtype == "plan_pending":
		fmt.Fprintln(r.o.Stdout, printable(strings.TrimRight(out.Plan, "\n")))
		fmt.Fprintf(r.o.Stderr, "ponder: the plan (%s) is waiting for approval. Answer with:\n  ponder -p --resume %s --approve-plan accept-edits\n  ponder -p --resume %s --reject-plan \"what to change\"\n", out.PlanFile, out.SessionID, out.SessionID)
		printPermissions(r.o.Stderr, out.Permissions)
	case out.IsError:
		if out.Result != "" && out.Result != out.Error {
			fmt.Fprintln(r.o.Stdout, printable(out.Result))
		}
		fmt.Fprintln(r.o.Stderr, "ponder: "+printable(out.Error))
	default:
		fmt.Fprintln(r.o.Stdout, printable(out.Result))
	}
}
