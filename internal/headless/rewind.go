package headless

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/internal/app"
)

// rewind handles --rewind-to: "list" prints the session's turns; a number
// rewinds to before that turn. It reports the exit code, and whether the
// run ends here (an error, a listing, or no prompt to go on with).
func (r *runner) rewind() (int, bool) {
	o := r.o
	last := strings.TrimSpace(o.Prompt) == "" && o.ApprovePlan == "" && o.RejectPlan == nil && o.InputFormat != FormatStreamJSON
	if o.RewindTo == "list" {
		r.finalText(turnList(r.a.Turns()))
		return app.ExitOK, true
	}
	n, err := strconv.Atoi(o.RewindTo)
	if err != nil || n <= 0 {
		return r.failed(&app.UsageError{Msg: fmt.Sprintf("--rewind-to %q: want a turn number, or list", o.RewindTo)})
	}
	res, err := r.a.Rewind(n, o.Rewind)
	if err != nil {
		var ue *app.UsageError
		if !errors.As(err, &ue) {
			err = &app.UsageError{Msg: err.Error()}
		}
		return r.failed(err)
	}
	if !last {
		fmt.Fprintln(o.Stderr, "ponder: "+res.Summary())
		return app.ExitOK, false
	}
	r.finalText(res.Summary())
	return app.ExitOK, true
}

// failed reports an error that ends the run.
func (r *runner) failed(err error) (int, bool) {
	out := Result{Type: "result", Subtype: "error", IsError: true, SessionID: r.a.ID(), Result: err.Error(), Error: err.Error(), Mode: r.a.Mode()}
	if r.o.OutputFormat != FormatText {
		r.w.line(out)
	}
	fmt.Fprintln(r.o.Stderr, "ponder: "+err.Error())
	return app.ExitCode(err), true
}

// finalText reports text as the run's result.
func (r *runner) finalText(text string) {
	if r.o.OutputFormat == FormatText {
		fmt.Fprintln(r.o.Stdout, text)
		return
	}
	r.w.line(Result{Type: "result", Subtype: "success", SessionID: r.a.ID(), Result: text, Mode: r.a.Mode(),
		DurationMS: time.Since(r.start).Milliseconds()})
}

// turnList describes the turns for --rewind-to list.
func turnList(turns []app.TurnInfo) string {
	if len(turns) == 0 {
		return "This session has no turns to rewind to."
	}
	var b strings.Builder
	for i, t := range turns {
		if i > 0 {
			b.WriteByte('\n')
		}
		prompt := t.Prompt
		switch {
		case t.Approval:
			prompt = "(the approved plan's implementation, " + t.Option + "; rewinding it makes the plan pending again)"
		case prompt == "":
			prompt = "(continued)"
		}
		first, _, _ := strings.Cut(prompt, "\n")
		fmt.Fprintf(&b, "%d  %s  %s", t.N, t.Time.Local().Format("15:04"), first)
		if len(t.Files) > 0 {
			fmt.Fprintf(&b, "\n     changed: %s", strings.Join(t.Files, ", "))
		}
		if len(t.Commands) > 0 {
			fmt.Fprintf(&b, "\n     commands (not restorable): %s", strings.Join(t.Commands, "; "))
		}
		switch {
		case !t.Conversation && t.Prompt == "":
			// A turn without a prompt of its own: it went on from an
			// earlier one (a plan approved on resume, say).
			b.WriteString("\n     (files only: this turn went on from an earlier one and has no prompt to go back to)")
		case !t.Conversation:
			b.WriteString("\n     (files only: the conversation of this turn was compacted or cleared)")
		}
	}
	return b.String()
}
