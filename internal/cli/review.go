package cli

import (
	"github.com/spf13/cobra"

	"github.com/ponder-agent/ponder/internal/app"
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
