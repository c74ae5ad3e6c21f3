package cli

import (
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/editor"
	"github.com/ponder-agent/ponder/internal/markdown"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/plans"
)

// newPlansCmd browses plan files: list, show, path, open.
func newPlansCmd(io IO) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plans",
		Short: "Browse plan files: list, show, path, open",
		Long: `plans lists and opens the plans ponder wrote for this project's plan
directory (plansDirectory, or ~/.ponder/plans). SLUG is a plan's name or
the start of it; without one, the newest plan is used.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return listPlans(io) },
	}
	cmd.AddCommand(
		&cobra.Command{Use: "list", Short: "List plans, newest first", Args: cobra.NoArgs,
			RunE: func(*cobra.Command, []string) error { return listPlans(io) }},
		&cobra.Command{Use: "show [SLUG]", Short: "Print a plan", Args: cobra.MaximumNArgs(1),
			RunE: func(_ *cobra.Command, args []string) error { return showPlan(io, first(args)) }},
		&cobra.Command{Use: "path [SLUG]", Short: "Print a plan's path", Args: cobra.MaximumNArgs(1),
			RunE: func(_ *cobra.Command, args []string) error {
				p, err := findPlan(first(args))
				if err == nil {
					fmt.Fprintln(io.Out, p.Path)
				}
				return err
			}},
		&cobra.Command{Use: "open [SLUG]", Short: "Open a plan in $VISUAL or $EDITOR", Args: cobra.MaximumNArgs(1),
			RunE: func(_ *cobra.Command, args []string) error { return openPlan(io, first(args)) }},
	)
	return cmd
}

func first(args []string) string {
	if len(args) > 0 {
		return args[0]
	}
	return ""
}

// projectPlans lists the plans of the project in the working directory.
func projectPlans() ([]plans.Info, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	cfgDir, err := config.DefaultDir(os.Getenv)
	if err != nil {
		return nil, err
	}
	home, _ := os.UserHomeDir()
	root := config.FindRoot(dir, cfgDir, home)
	cfg, err := config.Load(config.Options{ConfigDir: cfgDir, ProjectDir: root})
	if err != nil {
		return nil, err
	}
	plansDir := planmode.PlansDir(planmode.Config{ConfigDir: cfg.ConfigDir, ProjectDir: root, PlansDirectory: config.Str(cfg.Settings.PlansDirectory, "")})
	return plans.List(plansDir, cfg.ConfigDir)
}

func findPlan(slug string) (plans.Info, error) {
	list, err := projectPlans()
	if err != nil {
		return plans.Info{}, err
	}
	return plans.Find(list, slug)
}

func listPlans(io IO) error {
	list, err := projectPlans()
	if err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintln(io.Out, "No plans yet. Plan mode writes them: ponder --permission-mode plan, or /plan.")
		return nil
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
	p, err := findPlan(slug)
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
	p, err := findPlan(slug)
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
