package cli

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/headless"
	"github.com/ponder-agent/ponder/internal/reviewpage"
)

// newReviewCmd serves the review page of a session's pending plan.
func newReviewCmd(io IO) *cobra.Command {
	var provider, model string
	var trust bool
	cmd := &cobra.Command{
		Use:   "review SESSION",
		Short: "Review a session's pending plan on a local web page",
		Long: `review opens a local web page (on 127.0.0.1, behind a random token) for
the plan a headless run left waiting for approval: the plan rendered and
numbered, the permissions it asks for and the files it names. Comment on
lines, then approve (with any option and model), send the plan back with
your comments, or reject it; the session goes on as with --approve-plan or
--plan-feedback, and the page stops when that turn ends.`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return reviewpage.Run(cmd.Context(), reviewpage.Options{
				App:    app.Options{Resume: args[0], Provider: provider, Model: model, Trust: trust},
				Stdout: io.Out,
				Stderr: io.Err,
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&provider, "provider", "", "model provider: anthropic or openai (default: from the environment)")
	f.StringVar(&model, "model", "", "main model (default: the session's)")
	f.BoolVar(&trust, "trust", false, "trust this folder's project settings for this run")
	return cmd
}

// addReviewFlag registers --review-page.
func addReviewFlag(f *pflag.FlagSet, on *bool) {
	f.BoolVar(on, "review-page", false, "with -p: when the run leaves a plan waiting for approval, serve its review page (as ponder review does) and go on with the answer given there")
}

// reviewSession is the session a run with --review-page reviews, or "":
// the resumed one, or a new one whose id is chosen now.
func (o *rootOptions) reviewSession(h *headless.Options) (string, error) {
	if !o.reviewPage {
		return "", nil
	}
	switch {
	case o.inputFormat == headless.FormatStreamJSON:
		return "", errors.New("--review-page is for runs that leave a plan pending; a stream-json host answers plans itself")
	case o.cont || o.fork:
		return "", errors.New("--review-page needs a new session or --resume ID (not --continue or --fork-session)")
	case o.resume != "":
		return o.resume, nil
	case h.App.SessionID != "":
		return h.App.SessionID, nil
	}
	h.App.SessionID = uuid.NewString()
	return h.App.SessionID, nil
}

// reviewPending serves the review page of the plan the run left pending,
// if it left one.
func reviewPending(ctx context.Context, io IO, opts app.Options, id string) error {
	if id == "" {
		return nil
	}
	opts.Resume, opts.SessionID, opts.Continue, opts.Fork = id, "", false, false
	return reviewpage.Run(ctx, reviewpage.Options{App: opts, Stdout: io.Out, Stderr: io.Err, IfPending: true})
}
