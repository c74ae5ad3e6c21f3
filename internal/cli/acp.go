package cli

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/ponder-agent/ponder/internal/acp"
	"github.com/ponder-agent/ponder/internal/app"
)

// acpOptions are the flags of ponder acp: what every session the editor
// opens starts with.
type acpOptions struct {
	mode       string
	skipPerms  bool
	trust      bool
	model      string
	provider   string
	allowed    []string
	disallowed []string
}

func newACPCmd(io IO) *cobra.Command {
	o := &acpOptions{}
	cmd := &cobra.Command{
		Use:   "acp",
		Short: "Serve editors over the Agent Client Protocol on standard input and output",
		Long: `acp lets an editor that speaks the Agent Client Protocol (Zed, JetBrains
IDEs, Neovim with CodeCompanion or avante, ...) drive ponder: the editor
starts "ponder acp", opens sessions in its project, and shows ponder's
modes, plan approvals and permission requests in its own interface.

The model provider's key comes from the environment the editor gives
ponder (ANTHROPIC_API_KEY, or OPENAI_BASE_URL and OPENAI_API_KEY); there is
nothing to log in to.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.mode != "" {
				if err := app.CheckMode(o.mode); err != nil {
					return usage(err)
				}
			}
			// An editor that goes away closes the pipe ponder writes its
			// updates to. Caught (not ignored, which commands would
			// inherit), SIGPIPE turns such a write into an error, so the
			// running turn is stopped and recorded rather than killed.
			pipes := make(chan os.Signal, 1)
			signal.Notify(pipes, syscall.SIGPIPE)
			defer signal.Stop(pipes)
			return acp.Serve(cmd.Context(), acp.Options{
				App: app.Options{
					Provider:        o.provider,
					Model:           o.model,
					Mode:            o.mode,
					BypassAllowed:   o.skipPerms,
					Trust:           o.trust,
					RememberedTrust: true,
					Allowed:         o.allowed,
					Disallowed:      o.disallowed,
				},
				Version: Version,
				In:      io.In,
				Out:     io.Out,
				Log:     io.Err,
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.mode, "permission-mode", "", "mode every session starts in: default, acceptEdits, plan or bypassPermissions")
	f.BoolVar(&o.skipPerms, "dangerously-skip-permissions", false, "offer the bypassPermissions mode to the editor")
	f.BoolVar(&o.trust, "trust", false, "trust the project settings of the folders the editor opens (untrusted, they may only narrow permissions)")
	f.StringVar(&o.model, "model", "", "main model (default: $PONDER_MODEL, the settings, or the provider's default)")
	f.StringVar(&o.provider, "provider", "", "model provider: anthropic or openai (default: from the environment)")
	f.StringSliceVar(&o.allowed, "allowedTools", nil, `tool rules to allow, comma-separated, e.g. "Bash(git diff:*),Read"`)
	f.StringSliceVar(&o.disallowed, "disallowedTools", nil, "tool rules to deny, comma-separated")
	return cmd
}
