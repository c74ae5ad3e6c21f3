package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/tui/input"
)

// permissionDialog asks whether one tool call may run: yes; yes and don't
// ask again for calls of this kind; no, with what to do instead.
type permissionDialog struct {
	q        event.Question
	th       theme
	options  choice
	feedback input.Model
	typing   bool
	ans      event.Answer
}

func newPermissionDialog(q event.Question, th theme) *permissionDialog {
	labels := []string{"Yes"}
	if q.Suggest != "" {
		labels = append(labels, "Yes, and don't ask again for "+q.Suggest)
	}
	labels = append(labels, "No, and tell ponder what to do instead")
	fb := input.New()
	fb.SetPlaceholder("what should ponder do instead? (enter to send)")
	return &permissionDialog{q: q, th: th, options: choice{labels: labels}, feedback: fb}
}

func (d *permissionDialog) id() string           { return d.q.ID }
func (d *permissionDialog) answer() event.Answer { return d.ans }

func (d *permissionDialog) key(msg tea.Msg) (outcome, tea.Cmd) {
	if d.typing {
		return d.typeFeedback(msg)
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return stay, nil
	}
	if k.String() == "esc" {
		return dismissed, nil
	}
	if !d.options.key(k) {
		return stay, nil
	}
	last := len(d.options.labels) - 1
	switch d.options.selected {
	case 0:
		d.ans = event.Answer{Allow: true}
	case last:
		d.typing = true
		d.feedback.Focus()
		return stay, nil
	default:
		d.ans = event.Answer{Allow: true, Always: true}
	}
	return answered, nil
}

// typeFeedback edits the "what to do instead" text; Enter sends the
// refusal with it, Esc goes back to the options.
func (d *permissionDialog) typeFeedback(msg tea.Msg) (outcome, tea.Cmd) {
	text, done, back := typeInto(&d.feedback, msg)
	switch {
	case back:
		d.typing = false
	case done:
		d.ans = event.Answer{Allow: false, Message: text}
		return answered, nil
	}
	return stay, nil
}

func (d *permissionDialog) view(width, height int) string {
	th := d.th
	inner := max(20, width-4)
	var b strings.Builder
	b.WriteString(th.toolName.Render(d.q.Tool))
	if arg := toolArgument(d.q.Tool, d.q.Input); arg != "" {
		b.WriteString(th.toolArg.Render("(" + ansi.Truncate(display(arg), inner-len(d.q.Tool)-2, "…") + ")"))
	}
	b.WriteString("\n")
	if d.q.Reason != "" {
		b.WriteString(th.dim.Render(wrap(display(d.q.Reason), inner, "")) + "\n")
	}
	b.WriteString("\n" + d.options.view(th, inner))
	if d.typing {
		d.feedback.SetWidth(inner)
		b.WriteString("\n\n" + d.feedback.View())
	}
	b.WriteString("\n\n" + th.faint.Render("enter select · esc dismiss (the call does not run)"))
	title := "Allow this call?"
	if d.q.AgentID != "" {
		title = "Allow this call by a subagent?"
	}
	return frame(th, title, b.String(), width)
}

// enterPlanDialog asks whether the model may switch to plan mode.
type enterPlanDialog struct {
	q       event.Question
	th      theme
	options choice
	ans     event.Answer
}

func newEnterPlanDialog(q event.Question, th theme) *enterPlanDialog {
	return &enterPlanDialog{q: q, th: th, options: choice{labels: []string{"Yes, plan first", "No, carry on without a plan"}}}
}

func (d *enterPlanDialog) id() string           { return d.q.ID }
func (d *enterPlanDialog) answer() event.Answer { return d.ans }

func (d *enterPlanDialog) key(msg tea.Msg) (outcome, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return stay, nil
	}
	if k.String() == "esc" {
		return dismissed, nil
	}
	if !d.options.key(k) {
		return stay, nil
	}
	d.ans = event.Answer{Allow: d.options.selected == 0}
	return answered, nil
}

func (d *enterPlanDialog) view(width, height int) string {
	th := d.th
	inner := max(20, width-4)
	body := wrap("ponder wants to switch to plan mode to explore the code and design an approach before changing anything.", inner, "") + "\n\n" +
		th.dim.Render(strings.Join([]string{
			"In plan mode ponder will:",
			"  · read and search the code, and run only read-only commands",
			"  · write its plan to a plan file, the one file it may change",
			"  · ask you to approve the plan before any project file changes",
		}, "\n")) + "\n\n" + d.options.view(th, inner) + "\n\n" + th.faint.Render("enter select · esc dismiss")
	return frame(th, "Enter plan mode?", body, width)
}
