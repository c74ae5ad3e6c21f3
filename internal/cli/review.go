package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

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

// newPlansExportCmd writes a plan as a self-contained page.
func newPlansExportCmd(io IO) *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "export [SLUG] --html FILE",
		Short: "Write a plan as a self-contained web page a colleague can comment on",
		Long: `export writes the plan as one HTML file that needs no server: rendered,
with numbered lines to comment on, and a button that saves the comments as
a file for ponder -p --resume ID --plan-feedback FILE.`,
		Args: usageArgs(cobra.MaximumNArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			if strings.TrimSpace(file) == "" {
				return usage(errors.New("plans export needs --html FILE"))
			}
			p, err := app.FindPlan(first(args))
			if err != nil {
				return err
			}
			data, err := os.ReadFile(p.Path)
			if err != nil {
				return err
			}
			var page bytes.Buffer
			if err := reviewpage.Export(&page, strings.TrimSuffix(filepath.Base(p.Path), ".md"), string(data)); err != nil {
				return err
			}
			return writeFileAtomic(file, page.Bytes())
		},
	}
	cmd.Flags().StringVar(&file, "html", "", "the page to write")
	return cmd
}

// writeFileAtomic writes data to path through a file beside it, so that a
// reader never sees half a page.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(name)
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		os.Remove(name)
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return err
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return err
	}
	return nil
}
