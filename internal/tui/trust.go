package tui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ponder-agent/ponder/internal/app"
)

// The trust question comes before the session starts, since the answer
// decides which settings the session is built from. It is its own small
// program on the same terminal.

// trustAnswer is how the trust dialog closed.
type trustAnswer int

const (
	trustUnanswered trustAnswer = iota // Esc: narrow this time, ask again next time
	trustYes
	trustNo
	trustQuit // Ctrl+C: do not start
)

// trustModel shows the trust question.
type trustModel struct {
	q             *app.TrustQuestion
	th            theme
	options       choice
	width, height int
	answer        trustAnswer
}

func newTrustModel(q *app.TrustQuestion, th theme) *trustModel {
	return &trustModel{q: q, th: th, width: 100, height: 30, options: choice{labels: []string{
		"Yes, I trust this folder: use its settings in full",
		"No, use its settings only to restrict what ponder may do",
	}}}
}

func (m *trustModel) Init() tea.Cmd { return nil }

func (m *trustModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.KeyPressMsg:
		switch msg.String() {
		case "ctrl+c":
			m.answer = trustQuit
			return m, tea.Quit
		case "esc":
			return m, tea.Quit
		}
		if m.options.key(msg) {
			m.answer = trustYes
			if m.options.selected == 1 {
				m.answer = trustNo
			}
			return m, tea.Quit
		}
	}
	return m, nil
}

func (m *trustModel) View() tea.View {
	th := m.th
	inner := max(20, m.width-4)
	var b strings.Builder
	b.WriteString(wrap("ponder is starting in "+m.q.Root+". Its settings files come with the project, and a project you cloned could have been written by anyone:", inner, "") + "\n\n")
	for _, f := range m.q.Files {
		b.WriteString("  " + f + "\n")
	}
	b.WriteString("\n" + wrap("Trusted, they would also:", inner, "") + "\n")
	for _, e := range m.q.Enables {
		b.WriteString(wrap("• "+describeSetting(e), inner, "  ") + "\n")
	}
	b.WriteString("\n" + th.dim.Render(wrap("Their deny and ask rules count either way. Your answer is remembered for this folder.", inner, "")) + "\n\n")
	b.WriteString(m.options.view(th, inner))
	b.WriteString("\n\n" + th.faint.Render("enter select · esc not now (restrict, ask again next time) · ctrl+c quit"))
	v := tea.NewView(frame(th, "Trust this folder?", b.String(), m.width))
	v.AltScreen = true
	v.WindowTitle = "ponder"
	return v
}

// describeSetting says in words what an ignored setting would do.
func describeSetting(it app.TrustItem) string {
	what := map[string]string{
		"permissions.allow":        "allow without asking",
		"permissions.defaultMode":  "start in mode",
		"model":                    "use the model",
		"provider":                 "send the conversation to",
		"models.explore":           "use for Explore agents the model",
		"models.plan":              "use for planning the model",
		"planMode.model":           "use for planning the model",
		"shellEnvironment.include": "pass to commands the variables",
		"shellEnvironment.set":     "set for every command",
		"shellEnvironment.inherit": "pass commands the environment",
	}[it.Name]
	if what == "" {
		what = "apply " + it.Name + ":"
	}
	return fmt.Sprintf("%s %s  (%s, %s)", what, it.Value, it.Name, it.File)
}

// askTrust puts the trust question when there is one, and remembers a
// yes or no. It reports false when the user chose to quit.
func askTrust(ctx context.Context, o Options, th theme) (bool, error) {
	q, err := app.AskTrust(o.App)
	if err != nil || q == nil {
		return true, err
	}
	m := newTrustModel(q, th)
	popts := []tea.ProgramOption{tea.WithContext(ctx)}
	if o.In != nil {
		popts = append(popts, tea.WithInput(o.In))
	}
	if o.Out != nil {
		popts = append(popts, tea.WithOutput(o.Out))
	}
	if _, err := tea.NewProgram(m, popts...).Run(); err != nil {
		if ctx.Err() != nil {
			return false, nil
		}
		return false, fmt.Errorf("terminal interface: %w", err)
	}
	switch m.answer {
	case trustQuit:
		return false, nil
	case trustYes, trustNo:
		if err := app.AnswerTrust(o.App, q, m.answer == trustYes); err != nil {
			return true, fmt.Errorf("remembering the answer: %w", err)
		}
	}
	return true, nil
}
