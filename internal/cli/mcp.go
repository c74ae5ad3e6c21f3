package cli

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/mcpserver"
)

// mcpFlags are the flags that add MCP servers to a session.
type mcpFlags struct {
	configs []string
	strict  bool
}

func (m *mcpFlags) add(f *pflag.FlagSet) {
	f.StringArrayVar(&m.configs, "mcp-config", nil, `MCP servers to start: a JSON object {"mcpServers": {...}} or a file holding one (repeatable)`)
	f.BoolVar(&m.strict, "strict-mcp-config", false, "start only the MCP servers of --mcp-config, none from settings or .mcp.json")
}

func (m *mcpFlags) apply(o *app.Options) {
	o.MCPConfig, o.StrictMCPConfig = m.configs, m.strict
}

// newMCPCmd is `ponder mcp`: list the MCP servers a session would use, or
// serve ponder itself to other agents over MCP.
func newMCPCmd(io IO) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "MCP servers: list those ponder uses, or serve ponder to other agents",
		Args:  usageArgs(cobra.NoArgs),
	}
	cmd.AddCommand(newMCPListCmd(io), newMCPServeCmd(io))
	return cmd
}

func newMCPListCmd(io IO) *cobra.Command {
	var flags mcpFlags
	var trust, asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Start the MCP servers a session here would use, and show their state and tools",
		Long: `list starts every MCP server a session in this folder would start (from your
settings, a trusted project's settings and .mcp.json, and --mcp-config),
shows whether it connected and which tools it offers, then stops them.
Beside ponder's mark of each tool (read-only tools may be used in plan
mode; the others ask first, or are refused in plan mode) is what the
server claims (its readOnlyHint), which ponder shows but never trusts:
mark a tool read-only in your settings ("tools": {"name": "readOnly"}),
or with r in the interface's /mcp.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts := app.Options{Trust: trust, RememberedTrust: true}
			flags.apply(&opts)
			servers, notice, err := app.ListMCP(opts)
			if err != nil {
				return err
			}
			if notice != "" {
				fmt.Fprintln(io.Err, "ponder: "+notice)
			}
			if asJSON {
				if servers == nil {
					servers = []event.MCPServer{}
				}
				data, _ := json.MarshalIndent(servers, "", "  ")
				fmt.Fprintln(io.Out, string(data))
				return nil
			}
			printMCP(io, servers)
			return nil
		},
	}
	flags.add(cmd.Flags())
	cmd.Flags().BoolVar(&trust, "trust", false, "trust this folder's project settings and .mcp.json for this listing")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the servers as JSON")
	return cmd
}

// printMCP shows servers for a person.
func printMCP(io IO, servers []event.MCPServer) {
	if len(servers) == 0 {
		fmt.Fprintln(io.Out, "No MCP servers configured (settings mcpServers, .mcp.json in a trusted folder, or --mcp-config).")
		return
	}
	for i, s := range servers {
		if i > 0 {
			fmt.Fprintln(io.Out)
		}
		fmt.Fprintf(io.Out, "%s: %s (%s, from %s)\n", s.Name, s.Status, s.Transport, s.From)
		if s.Error != "" {
			fmt.Fprintf(io.Out, "  %s\n", s.Error)
		}
		tw := tabwriter.NewWriter(io.Out, 2, 4, 2, ' ', 0)
		for _, t := range s.Tools {
			name := t.Name
			if name == "" {
				name = t.Remote
			}
			claim := "server claims: nothing"
			if t.Annotated {
				claim = "server claims: read-only"
			}
			switch {
			case t.Skipped != "":
				fmt.Fprintf(tw, "  %s\tnot offered: %s\n", name, t.Skipped)
			case t.ReadOnly:
				fmt.Fprintf(tw, "  %s\tponder: read-only (plan mode too)\t%s\n", name, claim)
			default:
				fmt.Fprintf(tw, "  %s\tponder: may change things (asks; not in plan mode)\t%s\n", name, claim)
			}
		}
		tw.Flush()
	}
}

func newMCPServeCmd(io IO) *cobra.Command {
	var o mcpserver.Options
	var flags mcpFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve ponder to other agents as an MCP server on standard input and output",
		Long: `serve makes ponder an MCP server (stdio) for other agents and MCP clients.
Its tools:
  plan       plan a task in plan mode: nothing in the project changes; returns
             the plan, its file and the session id
  implement  carry out a planned session's plan once approved (session_id,
             option accept-edits by default), or send it back with feedback
  ask        answer a question about the code, reading only
Progress and plan events go to the client as log notifications (and as
progress notifications when the client asks for them).`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			flags.apply(&o.App)
			o.Version = Version
			o.Stdin, o.Stdout = io.In, io.Out
			return mcpserver.Serve(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	flags.add(f)
	f.BoolVar(&o.App.Trust, "trust", false, "trust this folder's project settings for the sessions served")
	f.StringVar(&o.App.Model, "model", "", "main model of the sessions served")
	f.StringVar(&o.App.Provider, "provider", "", "model provider: anthropic or openai")
	f.IntVar(&o.App.MaxTurns, "max-turns", 0, "stop each tool call's run after this many model requests")
	f.StringSliceVar(&o.App.Allowed, "allowedTools", nil, `tool rules to allow in the sessions served (nobody is there to say yes), e.g. "Bash(go test:*)"`)
	f.StringSliceVar(&o.App.Disallowed, "disallowedTools", nil, "tool rules to deny in the sessions served")
	return cmd
}
