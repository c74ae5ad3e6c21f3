package reviewpage

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
)

// Options configure a review of a session's pending plan.
type Options struct {
	// App opens the session; App.Resume names it.
	App app.Options
	// Stdout gets the model's last text when the turn the answer
	// continued ends; Stderr the page's address and what went wrong.
	Stdout, Stderr io.Writer
	// Ready, when set, is told the page's address once it serves.
	Ready func(url string)
	// IfPending makes a session without a pending plan no error: there
	// is nothing to review, and Run returns at once.
	IfPending bool
}

// Run opens the session, serves the page of the plan it left pending,
// and continues the session with the answer given there, exactly as
// --approve-plan or --plan-feedback would (app.AskPending). A revised
// plan the model asks about in the same turn appears on the open page.
// The page stops when the turn ends.
func Run(ctx context.Context, o Options) error {
	var page atomic.Pointer[Server]
	var self atomic.Pointer[app.App]
	opts := o.App
	// Questions come to the session's broker; the page answers those
	// about a plan. Anything else would wait for a person who is not
	// there: it is closed without an answer, which refuses it, as a
	// headless run does.
	opts.Interactive = true
	var announce sync.Once
	opts.Sink = func(e event.Event) {
		if s := page.Load(); s != nil {
			s.Observe(e)
			if qa, ok := e.(event.QuestionAsked); ok && qa.Question.Kind == event.AskPlanExit {
				// The address is given once the page has the plan
				// to show.
				announce.Do(func() {
					fmt.Fprintln(o.Stderr, "ponder: review the plan at "+s.URL())
					if o.Ready != nil {
						o.Ready(s.URL())
					}
				})
			}
		}
		if qa, ok := e.(event.QuestionAsked); ok && qa.Question.Kind != event.AskPlanExit {
			if a := self.Load(); a != nil {
				go a.Dismiss(qa.Question.ID)
			}
		}
		if n, ok := e.(event.Notice); ok && n.Level == "warning" {
			fmt.Fprintln(o.Stderr, "ponder: warning: "+n.Text)
		}
	}
	a, err := app.New(opts)
	if err != nil {
		return err
	}
	defer a.Close()
	self.Store(a)
	if err := a.Start(); err != nil {
		return err
	}
	if !a.HasPendingPlan() {
		if o.IfPending {
			return nil
		}
		return &app.UsageError{Msg: fmt.Sprintf("session %s has no plan waiting for approval", a.ID())}
	}
	s, err := New(a)
	if err != nil {
		return err
	}
	page.Store(s)
	served := make(chan error, 1)
	go func() { served <- s.Serve() }()
	res, err := a.AskPending(ctx)
	_ = s.Close()
	if serr := <-served; serr != nil && err == nil {
		err = serr
	}
	if err != nil {
		return err
	}
	if res.StopReason == app.StopPlanPending {
		fmt.Fprintln(o.Stderr, "ponder: the plan is still waiting for approval (ponder review "+a.ID()+")")
		return nil
	}
	if t := strings.TrimSpace(res.Text); t != "" {
		fmt.Fprintln(o.Stdout, t)
	}
	return nil
}
