package cli

import (
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
)

func newDoctorCmd(io IO) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Report the sandbox, the settings files and the model provider",
		Long: `doctor says how this machine and this folder would run ponder: which OS
sandbox confines commands run without your yes and what it restricts, which
settings files are read, which model provider and models would be used, and
what is missing.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			d := app.Diagnose(app.Options{})
			writeDiagnosis(io.Out, d)
			if d.SettingsErr != nil || d.SandboxErr != nil {
				return exitError{code: app.ExitUsage}
			}
			return nil
		},
	}
}

// writeDiagnosis prints the report.
func writeDiagnosis(w io.Writer, d app.Diagnosis) {
	fmt.Fprintf(w, "ponder %s (%s/%s)\n", Version, runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(w, "project: %s\n", d.Dir)
	fmt.Fprintf(w, "build: %s\n\n", d.Build)
	var missing []string

	switch {
	case d.SandboxErr != nil:
		fmt.Fprintf(w, "sandbox: error: %v\n", d.SandboxErr)
		missing = append(missing, "a working sandbox: "+d.SandboxErr.Error())
	default:
		fmt.Fprintf(w, "sandbox: %s\n", d.Sandbox)
		if d.SandboxKind != event.SandboxNone {
			fmt.Fprintln(w, "  confines every command in plan mode and read-only agents, and elsewhere each command run without a yes because it only reads")
			for _, r := range d.Restricts {
				fmt.Fprintf(w, "  - %s\n", r)
			}
		} else if d.AllowUnsandboxed {
			fmt.Fprintln(w, "  sandbox.allowUnsandboxed is set: read-only commands run unconfined, guarded by ponder's command check only")
		} else {
			fmt.Fprintln(w, "  plan mode and read-only agents run no shell commands; commands judged read-only run unconfined elsewhere")
		}
		for _, m := range d.Missing {
			fmt.Fprintf(w, "  not used: %s\n", m)
		}
		fmt.Fprintln(w, "  policy by mode:")
		for _, m := range d.Modes {
			fmt.Fprintf(w, "  - %s\n", m)
		}
		if d.SandboxKind != event.SandboxNone {
			if d.WorkspaceErr != nil {
				fmt.Fprintf(w, "  workspace policy: not available (%v)\n", d.WorkspaceErr)
				missing = append(missing, "the workspace policy (mount and PID namespaces, as root or through unprivileged user namespaces): "+d.WorkspaceErr.Error())
			} else {
				fmt.Fprintln(w, "  workspace policy (mount and PID namespaces, Landlock, seccomp):")
				for _, l := range d.Workspace {
					fmt.Fprintf(w, "  - %s\n", l)
				}
			}
		}
		if d.SandboxKind == event.SandboxNone {
			missing = append(missing, "an OS sandbox (Landlock in the kernel, or bubblewrap; sandbox-exec on macOS)")
			if d.Required {
				missing = append(missing, "sandbox.required is set, so ponder will not start here")
			}
		}
	}

	fmt.Fprintln(w, "\nsettings files read:")
	if len(d.Files) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	for _, f := range d.Files {
		fmt.Fprintf(w, "  %s\n", f)
	}
	for _, warn := range d.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", warn)
	}
	if d.SettingsErr != nil {
		fmt.Fprintf(w, "  error: %v\n", d.SettingsErr)
		missing = append(missing, "usable settings: "+d.SettingsErr.Error())
	}

	fmt.Fprintln(w)
	switch {
	case d.ProviderErr != nil:
		fmt.Fprintf(w, "provider: none (%v)\n", d.ProviderErr)
		missing = append(missing, "a model provider: "+d.ProviderErr.Error())
	case d.Provider != "":
		fmt.Fprintf(w, "provider: %s (model %s, explore model %s)\n", d.Provider, d.Models.Main, d.Models.Explore)
	}

	fmt.Fprintln(w, "\nMCP servers (ponder mcp list starts them and shows their tools):")
	if len(d.MCPServers) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	for _, m := range d.MCPServers {
		fmt.Fprintf(w, "  %s\n", m)
	}

	fmt.Fprintln(w, "\nhooks (read once as a session starts):")
	if len(d.Hooks) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	for _, h := range d.Hooks {
		fmt.Fprintf(w, "  %s\n", h)
	}

	fmt.Fprintln(w, "\nmissing:")
	if len(missing) == 0 {
		fmt.Fprintln(w, "  nothing")
	}
	for _, m := range missing {
		fmt.Fprintf(w, "  - %s\n", strings.TrimSpace(m))
	}
}
