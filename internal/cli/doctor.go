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
	var trust bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Report the sandbox, the settings files and the model provider",
		Long: `doctor says how this machine and this folder would run ponder: which OS
sandbox confines commands run without your yes and what it restricts, which
settings files are read, which model provider and models would be used, and
what is missing. In a folder you have not trusted it names the project
settings ponder leaves out until you do.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			d := app.Diagnose(app.Options{Trust: trust})
			writeDiagnosis(io.Out, d)
			if d.SettingsErr != nil || d.SandboxErr != nil {
				return exitError{code: app.ExitUsage}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&trust, "trust", false, "diagnose as a run with --trust would: this folder's project settings count in full")
	return cmd
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

	if len(d.Killed) > 0 {
		fmt.Fprintln(w, "\nif ponder itself is killed (SIGKILL):")
		for _, k := range d.Killed {
			fmt.Fprintf(w, "  - %s\n", k)
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

	writeTrust(w, d)

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
		fmt.Fprintln(w, "  (none)"+untrustedNote(d, "mcpServers"))
	}
	for _, m := range d.MCPServers {
		fmt.Fprintf(w, "  %s\n", m)
	}

	fmt.Fprintln(w, "\nhooks (read once as a session starts):")
	if len(d.Hooks) == 0 {
		fmt.Fprintln(w, "  (none)"+untrustedNote(d, "hooks"))
	}
	for _, h := range d.Hooks {
		fmt.Fprintf(w, "  %s\n", h)
	}

	fmt.Fprintln(w, "\nfiles that decide what runs (accept-edits asks before writing them, and before any hidden path):")
	fmt.Fprintf(w, "  patterns by category: %s\n", strings.Join(d.RunFiles.Categories, ", "))
	if len(d.RunFiles.Present) == 0 {
		fmt.Fprintln(w, "  in this project: (none)")
	} else {
		fmt.Fprintln(w, "  in this project:")
	}
	for _, p := range d.RunFiles.Present {
		fmt.Fprintf(w, "    %s\n", p)
	}
	fmt.Fprintln(w, "  put back after every call run without the user's own yes:")
	for _, g := range d.RunFiles.Guarded {
		fmt.Fprintf(w, "    %s\n", g)
	}

	fmt.Fprintln(w, "\nmissing:")
	if len(missing) == 0 {
		fmt.Fprintln(w, "  nothing")
	}
	for _, m := range missing {
		fmt.Fprintf(w, "  - %s\n", strings.TrimSpace(m))
	}
}

// writeTrust says whether the project's settings count in full and, when
// they do not, what is left out and how to trust the folder.
func writeTrust(w io.Writer, d app.Diagnosis) {
	if d.SettingsErr != nil || d.Root == "" {
		return
	}
	if d.Trusted {
		fmt.Fprintf(w, "\ntrust: %s is trusted (by %s): its settings count in full\n", d.Root, d.TrustedBy)
		return
	}
	fmt.Fprintf(w, "\ntrust: %s is not trusted: its settings may only narrow what ponder does.\n", d.Root)
	fmt.Fprintf(w, "  until it is, ponder ignores %s\n", app.UntrustedIgnores)
	if len(d.Ignored) == 0 {
		fmt.Fprintln(w, "  ignored here: nothing (its files set none of these)")
	} else {
		fmt.Fprintln(w, "  ignored here:")
		for _, it := range d.Ignored {
			fmt.Fprintf(w, "  - %s (%s) in %s\n", it.Name, it.Value, it.File)
		}
	}
	fmt.Fprintf(w, "  to trust it: %s\n", d.TrustHow)
}

// untrustedNote explains an empty list when an untrusted project sets the
// setting named (hooks, mcpServers): its entries are ignored.
func untrustedNote(d app.Diagnosis, setting string) string {
	for _, it := range d.Ignored {
		if it.Name == setting || strings.HasPrefix(it.Name, setting+".") {
			return "; the project's are ignored until the folder is trusted (see trust above)"
		}
	}
	return ""
}
