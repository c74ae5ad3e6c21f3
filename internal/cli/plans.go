package cli

import (
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/editor"
	"github.com/ponder-agent/ponder/internal/markdown"
)

// newPlansCmd browses plan files: list, show, path, open.
func newPlansCmd(io IO) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plans",
		Short: "Browse plan files: list, show, path, open",
		Long: `plans lists and opens the plans ponder wrote for this project's plan
directory (plansDirectory, or ~/.ponder/plans). SLUG is a plan's name or
the start of it; without one, the newest plan is used.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return listPlans(io) },
	}
	cmd.AddCommand(
		&cobra.Command{Use: "list", Short: "List plans, newest first", Args: usageArgs(cobra.NoArgs),
			RunE: func(*cobra.Command, []string) error { return listPlans(io) }},
		&cobra.Command{Use: "show [SLUG]", Short: "Print a plan", Args: usageArgs(cobra.MaximumNArgs(1)),
			RunE: func(_ *cobra.Command, args []string) error { return showPlan(io, first(args)) }},
		&cobra.Command{Use: "path [SLUG]", Short: "Print a plan's path", Args: usageArgs(cobra.MaximumNArgs(1)),
			RunE: func(_ *cobra.Command, args []string) error {
				p, err := app.FindPlan(first(args))
				if err == nil {
					fmt.Fprintln(io.Out, p.Path)
				}
				return err
			}},
		&cobra.Command{Use: "open [SLUG]", Short: "Open a plan in $VISUAL or $EDITOR", Args: usageArgs(cobra.MaximumNArgs(1)),
			RunE: func(_ *cobra.Command, args []string) error { return openPlan(io, first(args)) }},
		newPlansExportCmd(io),
	)
	return cmd
}

func first(args []string) string {
	if len(args) > 0 {
		return args[0]
	}
	return ""
}

func listPlans(io IO) error {
	list, err := app.Plans()
	if err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintln(io.Out, "No plans yet. Plan mode writes them: ponder --permission-mode plan, or /plan.")
		return nil
	}
	if dir, shared, err := app.PlansDirectory(); err == nil {
		note := "this project's plansDirectory"
		if shared {
			note = "shared by every project without a plansDirectory setting, so other projects' plans are listed too"
		}
		fmt.Fprintf(io.Err, "Plans in %s (%s):\n", dir, note)
	}
	tw := tabwriter.NewWriter(io.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "MODIFIED\tPLAN\tSESSION\tTITLE")
	for _, p := range list {
		session := p.Session
		if len(session) > 8 {
			session = session[:8]
		}
		if session == "" {
			session = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.Modified.Local().Format(time.DateTime), p.Slug, session, p.Title)
	}
	return tw.Flush()
}

func showPlan(io IO, slug string) error {
	p, err := app.FindPlan(slug)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(p.Path)
	if err != nil {
		return err
	}
	if out, ok := io.Out.(*os.File); ok && isTerminal(out) {
		fmt.Fprintln(io.Out, strings.TrimRight(markdown.Render(string(data), 100, markdown.DefaultTheme()), "\n"))
		return nil
	}
	_, err = io.Out.Write(data)
	return err
}

func openPlan(io IO, slug string) error {
	p, err := app.FindPlan(slug)
	if err != nil {
		return err
	}
	cmd, err := editor.Command(p.Path, os.Getenv)
	if err != nil {
		return err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("the editor failed: %w", err)
	}
	fmt.Fprintln(io.Err, "ponder: opened "+p.Path)
	return nil
}
