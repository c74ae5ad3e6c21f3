package tui

import (
	"context"
	"fmt"
	"io"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/ponder-agent/ponder/internal/app"
)

// Options configure the interface.
type Options struct {
	App app.Options
	// Prompt is sent as soon as the interface starts.
	Prompt string
	// Demo labels a scripted session in the status line.
	Demo string
	// Prefill puts text in the input box without sending it.
	Prefill string
	In      io.Reader
	Out     io.Writer
}

// Run shows the interface until the user quits.
func Run(ctx context.Context, o Options) error {
	opts := o.App
	opts.Interactive = true
	opts.Asker = nil // questions go to the app's broker and from there to dialogs
	opts.RememberedTrust = true
	o.App = opts
	th := colourTheme()
	if os.Getenv("NO_COLOR") != "" {
		th = plainTheme()
	}
	if !opts.Trust {
		if start, err := askTrust(ctx, o, th); err != nil || !start {
			return err
		}
	}
	a, err := app.New(opts)
	if err != nil {
		return err
	}
	defer a.Close()
	m := newModel(a, th)
	// The session shown last (after /resume, not the first one) is closed
	// too, which stops and waits for its running turn.
	defer func() { _ = m.app.Close() }()
	defer m.Close()
	m.demo, m.first = o.Demo, o.Prompt
	m.askPending = a.HasPendingPlan()
	if o.Prefill != "" {
		m.in.SetValue(o.Prefill)
	}
	a.SetTaskHint(o.Prompt)
	if err := a.Start(); err != nil {
		return err
	}
	popts := []tea.ProgramOption{tea.WithContext(ctx)}
	if o.In != nil {
		popts = append(popts, tea.WithInput(o.In))
	}
	if o.Out != nil {
		popts = append(popts, tea.WithOutput(o.Out))
	}
	p := tea.NewProgram(m, popts...)
	if _, err := p.Run(); err != nil && ctx.Err() == nil {
		return fmt.Errorf("terminal interface: %w", err)
	}
	return nil
}
