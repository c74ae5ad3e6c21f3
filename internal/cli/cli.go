// Package cli is ponder's command line: it parses flags with cobra and
// hands the run to a front end (the terminal UI or headless mode). It
// wires, and decides nothing itself: what a flag may say is checked by
// package app, which owns the tables the answers come from.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/demo"
	"github.com/ponder-agent/ponder/internal/headless"
	"github.com/ponder-agent/ponder/internal/tui"
)

// Version is set at build time with -ldflags "-X .../cli.Version=…".
var Version = "0.1.0-dev"

// IO is where a command reads and writes.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
	// InIsTerminal says standard input is a terminal (no piped prompt).
	InIsTerminal bool
}

// rootOptions are the flags of the main command.
type rootOptions struct {
	print         bool
	mode          string
	skipPerms     bool
	trust         bool
	outputFormat  string
	inputFormat   string
	model         string
	exploreModel  string
	planModel     string
	planEffort    string
	provider      string
	cont          bool
	resume        string
	fork          bool
	sessionID     string
	maxTurns      int
	allowed       []string
	disallowed    []string
	planApproval  string
	approvePlan   string
	rejectPlan    string
	rejectPlanSet bool
	team          string
	rewindTo      string
	rewind        string
	mcp           mcpFlags
	planFeedback  string
	reviewPage    bool
	// compat are the flags hosts such as the Claude Agent SDK pass.
	compat compatOptions
}

// exitError carries through cobra the exit status of a run that has
// reported its outcome itself.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// exitCode is the exit status for how the command line ended: a run that
// reported itself keeps its status; otherwise usage problems are 2 and
// everything else 1 (app.ExitCode).
func exitCode(err error) int {
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return app.ExitCode(err)
}

// usage marks err as a problem with how ponder was invoked.
func usage(err error) error {
	var ue *app.UsageError
	if err == nil || errors.As(err, &ue) {
		return err
	}
	return &app.UsageError{Msg: err.Error()}
}

// usageArgs makes the errors of an argument check usage errors.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error { return usage(check(cmd, args)) }
}

// stopSignals end a run cleanly: the running turn is cancelled, which
// stops its commands, and the transcript records how it ended. SIGHUP
// (the terminal closed, the ssh connection dropped) is one of them; left
// to its default action it would kill ponder and leave its commands
// running.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// Main runs the command line and returns the process exit status.
func Main() int {
	// No core dumps, and ponder's own /proc entries closed to its
	// commands; then ponder becomes the subreaper of whatever its
	// commands leave behind, and kills it all on the way out.
	shutdown, warning := app.SetUpProcess()
	if warning != nil {
		fmt.Fprintln(os.Stderr, "ponder: warning: "+warning.Error())
	}
	defer shutdown()
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	go exitIfStuck(ctx, stuckGrace, func() { shutdown(); os.Exit(130) })
	stdin := IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, InIsTerminal: isTerminal(os.Stdin)}
	return Run(ctx, os.Args[1:], stdin)
}

// stuckGrace is how long ponder may take to wind down after a stop
// signal before it gives up on a clean end.
const stuckGrace = 10 * time.Second

// exitIfStuck ends ponder when a stop signal has been received and the
// process is still running after stuckGrace, or at once on a second stop
// signal: a system call that ignores cancellation (an open that waits on
// a device, a file system that hangs) must not make ponder unkillable
// short of SIGKILL. exit kills what ponder started and ends it.
func exitIfStuck(ctx context.Context, grace time.Duration, exit func()) {
	<-ctx.Done()
	again := make(chan os.Signal, 1)
	signal.Notify(again, stopSignals...)
	defer signal.Stop(again)
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-again:
	case <-timer.C:
		fmt.Fprintln(os.Stderr, "ponder: still busy after the stop signal; exiting")
	}
	exit()
}

// Run executes the command line args.
func Run(ctx context.Context, args []string, io IO) int {
	cmd := newRootCmd(io)
	cmd.SetArgs(expandResume(args))
	cmd.SetIn(io.In)
	cmd.SetOut(io.Out)
	cmd.SetErr(io.Err)
	err := cmd.ExecuteContext(ctx)
	var ee exitError
	if err != nil && !errors.As(err, &ee) {
		fmt.Fprintln(io.Err, "ponder: "+err.Error())
	}
	return exitCode(err)
}

func newRootCmd(io IO) *cobra.Command {
	o := &rootOptions{}
	cmd := &cobra.Command{
		Use:   "ponder [prompt]",
		Short: "A coding agent for the terminal that plans before it changes anything",
		Long: `ponder is a coding agent for the terminal. Its plan mode explores your code
read-only, writes a plan, and asks for your approval before any file changes.

Run it without arguments for the interactive interface, or with -p for a
headless run whose result goes to standard output.`,
		Args:          usageArgs(cobra.MaximumNArgs(1)),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.rejectPlanSet = cmd.Flags().Changed("reject-plan")
			if err := checkResume(o.resume, cmd.Flags().Changed("resume")); err != nil {
				return usage(err)
			}
			o.compat.read(cmd)
			for _, n := range o.compat.notes(cmd) {
				fmt.Fprintln(io.Err, "ponder: note: "+n)
			}
			return runRoot(cmd.Context(), o, args, io)
		},
	}
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usage(fmt.Errorf("%w (see ponder --help)", err))
	})
	f := cmd.Flags()
	f.SetNormalizeFunc(claudeSpellings)
	f.BoolVarP(&o.print, "print", "p", false, "run headless: answer the prompt and print the result")
	f.StringVar(&o.mode, "permission-mode", "", "start in this mode: default, acceptEdits, plan or bypassPermissions")
	f.BoolVar(&o.skipPerms, "dangerously-skip-permissions", false, "allow bypassPermissions mode (and add it to the Shift+Tab cycle)")
	f.BoolVar(&o.trust, "trust", false, "trust this folder's project settings for this run: their allow rules, default mode and other widening settings count (untrusted, they may only narrow permissions)")
	f.StringVar(&o.outputFormat, "output-format", headless.FormatText, "headless output: text, json or stream-json")
	f.StringVar(&o.inputFormat, "input-format", "text", "headless input: text, or stream-json (messages and control responses on standard input)")
	f.StringVar(&o.model, "model", "", "main model (default: $PONDER_MODEL, the settings, or the provider's default)")
	f.StringVar(&o.exploreModel, "explore-model", "", "model of Explore agents (default: models.explore, or the provider's fast model)")
	f.StringVar(&o.planModel, "plan-model", "", "model used in plan mode (default: planMode.model or models.plan, else the main model)")
	f.StringVar(&o.planEffort, "plan-effort", "", "how hard the model thinks in plan mode: low, medium or high (default: effort.plan; sent only to models that take it)")
	f.StringVar(&o.provider, "provider", "", "model provider: anthropic or openai (default: from the environment)")
	f.BoolVarP(&o.cont, "continue", "c", false, "continue the most recent session in this directory")
	f.StringVarP(&o.resume, "resume", "r", "", "resume the session with this id")
	f.BoolVar(&o.fork, "fork-session", false, "with --resume or --continue: continue a copy under a new session id")
	f.StringVar(&o.sessionID, "session-id", "", "use this UUID for a new session")
	f.IntVar(&o.maxTurns, "max-turns", 0, "stop after this many model requests (headless)")
	f.StringSliceVar(&o.allowed, "allowedTools", nil, `tool rules to allow, comma-separated, e.g. "Bash(git diff:*),Read"`)
	f.StringSliceVar(&o.disallowed, "disallowedTools", nil, "tool rules to deny, comma-separated")
	f.StringVar(&o.planApproval, "plan-approval", app.PlanPending, "headless without a control channel: how to answer a plan approval: pending, approve, accept-edits, manual, clear-context or reject")
	f.StringVar(&o.approvePlan, "approve-plan", "", "with --resume: approve the pending plan with this option: approve, accept-edits, manual or clear-context")
	f.StringVar(&o.rejectPlan, "reject-plan", "", "with --resume: reject the pending plan with this feedback")
	f.StringVar(&o.team, "team", "", "lead the team of this name: SpawnTeammate and SendMessage are offered, and teammates' messages and plan approval requests reach this session")
	f.StringVar(&o.rewindTo, "rewind-to", "", "with --resume: put files and conversation back to before turn N (list: show the turns), then go on with the prompt if one is given")
	f.StringVar(&o.rewind, "rewind", "both", "with --rewind-to: what to put back: both, files or conversation")
	o.mcp.add(f)
	addReviewFlag(f, &o.reviewPage)
	f.StringVar(&o.planFeedback, "plan-feedback", "", `with --resume: send the pending plan back with the feedback in this file, markdown ("line 3: use a map" comments on line 3 of the plan) or JSON ({"feedback":"…","annotations":[{"line":3,"comment":"…"}]})`)
	// The real flags come first: a compat flag steps aside for one
	// that exists.
	addCompatFlags(f, &o.compat)
	cmd.AddCommand(newVersionCmd(), newDemoCmd(io), newPlansCmd(io), newDoctorCmd(io), newTeammateCmd(io), newACPCmd(io), newMCPCmd(io), newReviewCmd(io))
	setFriendly(cmd)
	return cmd
}

// claudeSpellings lets the dashed spellings of Claude Code's flags name
// ponder's: --allowed-tools is --allowedTools, --disallowed-tools is
// --disallowedTools.
func claudeSpellings(_ *pflag.FlagSet, name string) pflag.NormalizedName {
	switch name {
	case "allowed-tools":
		name = "allowedTools"
	case "disallowed-tools":
		name = "disallowedTools"
	}
	return pflag.NormalizedName(name)
}

func runRoot(ctx context.Context, o *rootOptions, args []string, io IO) error {
	if o.inputFormat == headless.FormatStreamJSON && o.outputFormat == headless.FormatStreamJSON {
		// A program speaking stream-json both ways is a host: there is
		// no terminal to draw on.
		o.print = true
	}
	if err := o.compat.validate(); err != nil {
		return usage(err)
	}
	dontAsk := false
	if o.mode == "dontAsk" {
		// The SDK's "ask nobody": the default mode, with every call
		// that would ask refused.
		o.mode, dontAsk = "default", true
	}
	if err := o.validate(); err != nil {
		return usage(err)
	}
	prompt := ""
	if len(args) == 1 {
		prompt = args[0]
	}
	appOpts := app.Options{
		Provider:      o.provider,
		Model:         o.model,
		ExploreModel:  o.exploreModel,
		PlanModel:     o.planModel,
		PlanEffort:    o.planEffort,
		Mode:          o.mode,
		BypassAllowed: o.skipPerms || o.compat.allowSkip,
		Trust:         o.trust,
		Allowed:       o.allowed,
		Disallowed:    o.disallowed,
		MaxTurns:      o.maxTurns,
		Resume:        o.resume,
		Continue:      o.cont,
		Fork:          o.fork,
		SessionID:     o.sessionID,
		PlanApproval:  o.planApproval,
		Team:          leadOptions(o.team),

		AppendSystemPrompt: o.compat.appendSystemPrompt,
		DontAsk:            dontAsk,
		Tools:              o.compat.toolList(),
		Settings:           o.compat.settings,
		AddDirs:            o.compat.addDirs,
	}
	debug, err := o.compat.debugWriter(io.Err)
	if err != nil {
		return usage(err)
	}
	appOpts.Debug = debug
	o.mcp.apply(&appOpts)
	if o.compat.systemPromptSet {
		sp := o.compat.systemPrompt
		appOpts.SystemPrompt = &sp
	}
	pick := o.resume == pickSession
	if pick {
		appOpts.Resume = ""
	}
	if !o.print {
		if !io.InIsTerminal {
			return usage(errors.New("the interactive interface needs a terminal; use -p for a headless run"))
		}
		return tui.Run(ctx, tui.Options{App: appOpts, Prompt: prompt, PickSession: pick})
	}
	if pick {
		return usage(errors.New("-r without an id picks a session from a list in the interface; a headless run needs the id (ponder -p -r ID), or -c for the latest"))
	}
	if o.inputFormat != headless.FormatStreamJSON && !io.InIsTerminal && io.In != nil {
		// A prompt read from standard input, or a prompt followed by the
		// text piped in.
		var err error
		if prompt, err = withPipedInput(prompt, io.In); err != nil {
			return err
		}
	}
	hopts := headless.Options{
		App:          appOpts,
		Prompt:       prompt,
		OutputFormat: o.outputFormat,
		InputFormat:  o.inputFormat,
		ApprovePlan:  o.approvePlan,
		RewindTo:     o.rewindTo,
		Rewind:       o.rewind,
		Stdin:        io.In,
		Stdout:       io.Out,
		Stderr:       io.Err,

		IncludePartial: o.compat.includePartial,
		ReplayUser:     o.compat.replayUser,
		HostAnswers:    o.compat.permissionPrompt == "stdio",
		Version:        Version,
	}
	if err := o.planAnswer(&hopts); err != nil {
		return usage(err)
	}
	reviewID, err := o.reviewSession(&hopts)
	if err != nil {
		return usage(err)
	}
	if code := headless.Run(ctx, hopts); code != 0 {
		return exitError{code: code}
	}
	return reviewPending(ctx, io, hopts.App, reviewID)
}

// validate checks flag combinations before anything starts.
func (o *rootOptions) validate() error {
	if o.mode != "" {
		if err := app.CheckMode(o.mode); err != nil {
			return err
		}
	}
	switch o.outputFormat {
	case headless.FormatText, headless.FormatJSON, headless.FormatStreamJSON:
	default:
		return fmt.Errorf("unknown --output-format %q (want text, json or stream-json)", o.outputFormat)
	}
	switch o.inputFormat {
	case "text", headless.FormatStreamJSON:
	default:
		return fmt.Errorf("unknown --input-format %q (want text or stream-json)", o.inputFormat)
	}
	if o.inputFormat == headless.FormatStreamJSON && o.outputFormat != headless.FormatStreamJSON {
		return errors.New("--input-format stream-json needs --output-format stream-json")
	}
	if err := app.CheckPlanApproval(o.planApproval); err != nil {
		return err
	}
	if o.planFeedback != "" {
		o.rejectPlanSet = true
	}
	if o.approvePlan != "" || o.rejectPlanSet {
		if o.resume == "" && !o.cont {
			return errors.New("--approve-plan and --reject-plan answer a pending plan: use them with --resume ID")
		}
		if o.approvePlan != "" && o.rejectPlanSet {
			return errors.New("use either --approve-plan or --reject-plan, not both")
		}
		if !o.print {
			return errors.New("--approve-plan and --reject-plan are for headless runs (-p)")
		}
	}
	if o.rewindTo != "" && (o.resume == "" && !o.cont || !o.print) {
		return errors.New("--rewind-to rewinds an earlier session: use it with -p and --resume ID (or --continue)")
	}
	if o.approvePlan != "" {
		if err := app.CheckApprovalOption(o.approvePlan); err != nil {
			return err
		}
	}
	if o.maxTurns < 0 {
		return errors.New("--max-turns must not be negative")
	}
	if (o.inputFormat != "text" || o.outputFormat != headless.FormatText) && !o.print {
		return errors.New("--output-format and --input-format are for headless runs (-p)")
	}
	return nil
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print ponder's version",
		Args:  usageArgs(cobra.NoArgs),
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintln(cmd.OutOrStdout(), "ponder "+Version)
		},
	}
}

func newDemoCmd(io IO) *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "Try ponder's interface on a scripted session (no API key needed)",
		Long: `demo opens the interactive interface on a scratch copy of a tiny project,
with a scripted stand-in for the model that walks through plan mode:
exploring, writing a plan, the approval dialog, and the implementation.
No model is called and nothing outside the scratch directory changes.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !io.InIsTerminal {
				return usage(errors.New("the demo needs a terminal"))
			}
			opts, err := demo.Options()
			if err != nil {
				return fmt.Errorf("preparing the demo project: %w", err)
			}
			fmt.Fprintf(io.Err, "ponder demo: a scripted session in %s\n", opts.Dir)
			err = tui.Run(cmd.Context(), tui.Options{App: opts, Demo: demo.Label, Prefill: demo.Prompt})
			fmt.Fprintf(io.Err, "ponder demo: the scratch project is left in %s for you to look at; remove it with: rm -r %s\n", demo.ScratchRoot(opts), demo.ScratchRoot(opts))
			return err
		},
	}
}
