package cli

import (
	"fmt"
	"os"
	"strconv"
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
		Short: "Browse plan files: list, show, path, open, check",
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
		&cobra.Command{Use: "log [SLUG]", Short: "List a plan's versions with their time and cause", Args: usageArgs(cobra.MaximumNArgs(1)),
			RunE: func(_ *cobra.Command, args []string) error { return planLog(io, first(args)) }},
		&cobra.Command{Use: "diff [SLUG [A B]]", Short: "Print the changes between two versions of a plan (default: the last two)",
			Args: usageArgs(func(cmd *cobra.Command, args []string) error {
				if len(args) == 2 || len(args) > 3 {
					return fmt.Errorf("want a plan, or a plan and two version numbers")
				}
				return nil
			}),
			RunE: func(_ *cobra.Command, args []string) error { return planDiff(io, args) }},
		&cobra.Command{Use: "check SESSION", Short: "Check a session's implementation against its approved plan", Args: usageArgs(cobra.ExactArgs(1)),
			RunE: func(_ *cobra.Command, args []string) error {
				r, err := app.CheckSession(app.Options{}, args[0])
				if err == nil {
					fmt.Fprint(io.Out, app.ReportText(r))
				}
				return err
			}},
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

// planLog lists a plan's versions.
func planLog(io IO, slug string) error {
	name, vs, err := app.PlanVersions(slug)
	if err != nil {
		return err
	}
	if len(vs) == 0 {
		fmt.Fprintf(io.Out, "No versions of %s are recorded.\n", name)
		return nil
	}
	for _, v := range vs {
		fmt.Fprintf(io.Out, "%d  %s  %s  (session %s)\n", v.N, v.Time.Local().Format("2006-01-02 15:04:05"), v.Cause, v.Session)
	}
	return nil
}

// planDiff prints the diff between two versions of a plan.
func planDiff(io IO, args []string) error {
	a, b := 0, 0
	if len(args) == 3 {
		var err1, err2 error
		a, err1 = strconv.Atoi(args[1])
		b, err2 = strconv.Atoi(args[2])
		if err1 != nil || err2 != nil {
			return &app.UsageError{Msg: fmt.Sprintf("plans diff: versions are numbers (see plans log), not %q and %q", args[1], args[2])}
		}
	}
	d, err := app.PlanDiff(first(args), a, b)
	if err != nil {
		return err
	}
	if d == "" {
		d = "The two versions are the same.\n"
	}
	fmt.Fprint(io.Out, d)
	return nil
}
