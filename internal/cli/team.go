package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/headless"
)

// leadOptions makes a session the lead of team (--team), or nothing.
func leadOptions(team string) *app.TeamOptions {
	if team == "" {
		return nil
	}
	return &app.TeamOptions{Team: team}
}

// teammateOptions are the flags of ponder teammate.
type teammateOptions struct {
	team, name      string
	planRequired    bool
	mode, leadMode  string
	outputFormat    string
	model, provider string
	trust           bool
	mailbox         string
	allowed, denied []string
	tools           string
}

func newTeammateCmd(io IO) *cobra.Command {
	o := &teammateOptions{}
	cmd := &cobra.Command{
		Use:   "teammate --team TEAM --name NAME [prompt]",
		Short: "Run a teammate of a team whose lead runs elsewhere",
		Long: `teammate runs one member of a team as a process of its own, in this
directory: its task is the prompt; it reads its inbox between turns and
reports to the lead (ponder --team TEAM). Started again with the same team
and name, it resumes its session: a plan that was waiting for the lead's
approval keeps waiting, and an answer that came meanwhile is applied.

The mailbox is team.mailbox from your settings ("files", the default, for
teams on one machine; "nats://host:4222" for teams across machines), or
--mailbox.`,
		Args:          usageArgs(cobra.MaximumNArgs(1)),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.team == "" || o.name == "" {
				return usage(errors.New("ponder teammate needs --team and --name"))
			}
			for _, m := range []string{o.mode, o.leadMode} {
				if m == "" {
					continue
				}
				if err := app.CheckMode(m); err != nil {
					return usage(err)
				}
			}
			if o.outputFormat != headless.FormatText && o.outputFormat != headless.FormatStreamJSON {
				return usage(fmt.Errorf("unknown --output-format %q (want text or stream-json)", o.outputFormat))
			}
			prompt := ""
			if len(args) == 1 {
				prompt = args[0]
			}
			opts := headless.Options{
				App: app.Options{Provider: o.provider, Model: o.model, Mode: o.mode, Trust: o.trust, Allowed: o.allowed, Disallowed: o.denied,
					Tools: toolList(cmd.Flags().Changed("tools"), o.tools),
					Team:  &app.TeamOptions{Team: o.team, Name: o.name, PlanModeRequired: o.planRequired, Mailbox: o.mailbox, LeadMode: o.leadMode}},
				Prompt: prompt, OutputFormat: o.outputFormat, Stdout: io.Out, Stderr: io.Err,
			}
			if code := headless.RunTeammate(cmd.Context(), opts); code != 0 {
				return exitError{code: code}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.team, "team", "", "the team's name")
	f.StringVar(&o.name, "name", "", "this teammate's name")
	f.BoolVar(&o.planRequired, "plan-mode-required", false, "plan first: start in plan mode and change nothing until the lead approves the plan")
	f.StringVar(&o.mode, "permission-mode", "", "the mode to work in (with --plan-mode-required: once the plan is approved)")
	f.StringVar(&o.leadMode, "lead-mode", "", "the lead's permission mode: no answer, setting or resumed session takes this teammate to a freer one (default: its own starting mode)")
	f.StringVar(&o.outputFormat, "output-format", headless.FormatText, "text, or stream-json (one event a line)")
	f.StringVar(&o.model, "model", "", "model")
	f.StringVar(&o.provider, "provider", "", "model provider: anthropic or openai")
	f.BoolVar(&o.trust, "trust", false, "trust this folder's project settings for this run")
	f.StringVar(&o.mailbox, "mailbox", "", `the team's mailbox: "files" or a nats:// URL (default: team.mailbox from the settings)`)
	f.StringSliceVar(&o.allowed, "allowedTools", nil, "tool rules to allow, comma-separated")
	f.StringSliceVar(&o.denied, "disallowedTools", nil, "tool rules to deny, comma-separated")
	f.StringVar(&o.tools, "tools", "", `the only built-in tools the teammate has, comma-separated ("default": all of them; "": none; default: the ones its record kept, else all)`)
	return cmd
}

// toolList reads a --tools value: nil (every tool) when the flag was not
// given or says "default", else the names it lists (none for "").
func toolList(set bool, s string) []string {
	if !set || strings.TrimSpace(s) == "default" {
		return nil
	}
	list := []string{}
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			list = append(list, n)
		}
	}
	return list
}
