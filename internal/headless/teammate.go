package headless

import (
	"context"
	"fmt"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
)

// RunTeammate runs a teammate without a terminal (ponder teammate): its
// events go to standard output as the output format says, and it works
// until its lead asks it to stop or a signal ends it. The prompt is the
// task of a new teammate; one started again resumes its session.
func RunTeammate(ctx context.Context, o Options) int {
	w := &writer{out: o.Stdout, errOut: o.Stderr, format: o.OutputFormat}
	opts := o.App
	opts.Interactive = false
	opts.Sink = func(e event.Event) {
		w.emit(e)
		if s, ok := e.(event.TeammateState); ok && o.OutputFormat == FormatText {
			w.mu.Lock()
			fmt.Fprintf(o.Stderr, "ponder: teammate %s: %s\n", s.Name, s.State)
			w.mu.Unlock()
		}
	}
	a, err := app.New(opts)
	if err != nil {
		fmt.Fprintln(o.Stderr, "ponder: "+err.Error())
		return app.ExitCode(err)
	}
	defer a.Close()
	if err := a.Start(); err != nil {
		fmt.Fprintln(o.Stderr, "ponder: "+err.Error())
		return app.ExitCode(err)
	}
	if err := a.RunTeammate(ctx, o.Prompt); err != nil {
		fmt.Fprintln(o.Stderr, "ponder: "+err.Error())
		return app.ExitCode(err)
	}
	if ctx.Err() != nil {
		return app.ExitFailure
	}
	return app.ExitOK
}

// waitTeam runs the lead's turns for its team's messages while the team
// works, after a turn that ended normally; it returns the last turn's
// outcome.
func waitTeam(ctx context.Context, a *app.App, res app.TurnResult, err error) (app.TurnResult, error) {
	for err == nil && res.StopReason == app.StopEndTurn && a.TeamBusy() {
		select {
		case <-ctx.Done():
			return res, err
		case <-a.TeamWake():
		}
		next, ran, nerr := a.SendTeam(ctx)
		if ran {
			next.Requests += res.Requests
			res, err = next, nerr
		}
	}
	return res, err
}
