package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/markdown"
	"github.com/ponder-agent/ponder/internal/tui/input"
)

// approvalDialog shows the plan for approval: rendered markdown that
// scrolls, its path, the approval options, Ctrl+G to edit the plan in the
// editor first, and a feedback field for "no, keep planning".
type approvalDialog struct {
	q        event.Question
	th       theme
	plan     string
	edited   bool
	options  choice
	feedback input.Model
	typing   bool
	offset   int
	height   int // plan lines shown, set by view
	ans      event.Answer
	// edit opens the plan in the editor; set by the model.
	edit    func(plan, name string) tea.Cmd
	problem string
}

func newApprovalDialog(q event.Question, th theme) *approvalDialog {
	labels := make([]string, len(q.Options))
	for i, o := range q.Options {
		labels[i] = o.Label
	}
	fb := input.New()
	fb.SetPlaceholder("what should change in the plan? (enter to send)")
	return &approvalDialog{q: q, th: th, plan: q.Plan, options: choice{labels: labels}, feedback: fb}
}

func (d *approvalDialog) id() string           { return d.q.ID }
func (d *approvalDialog) answer() event.Answer { return d.ans }

func (d *approvalDialog) key(msg tea.Msg) (outcome, tea.Cmd) {
	if d.typing {
		return d.typeFeedback(msg)
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return stay, nil
	}
	switch k.String() {
	case "esc":
		return dismissed, nil
	case "ctrl+g":
		return stay, d.startEdit()
	case "pgdown", "ctrl+d", "space":
		d.offset += max(1, d.height-1)
		return stay, nil
	case "pgup", "ctrl+u":
		d.offset = max(0, d.offset-max(1, d.height-1))
		return stay, nil
	case "home":
		d.offset = 0
		return stay, nil
	}
	if !d.options.key(k) {
		return stay, nil
	}
	opt := d.q.Options[d.options.selected].ID
	if opt == event.OptionReject {
		d.typing = true
		d.feedback.Focus()
		return stay, nil
	}
	d.ans = event.Answer{Option: opt}
	if d.edited {
		p := d.plan
		d.ans.EditedPlan = &p
	}
	return answered, nil
}

func (d *approvalDialog) typeFeedback(msg tea.Msg) (outcome, tea.Cmd) {
	text, done, back := typeInto(&d.feedback, msg)
	switch {
	case back:
		d.typing = false
	case done:
		d.ans = event.Answer{Option: event.OptionReject, Feedback: text}
		if d.edited {
			p := d.plan
			d.ans.EditedPlan = &p
		}
		return answered, nil
	}
	return stay, nil
}

// startEdit opens the plan, as the dialog shows it, in the editor; the
// edited text comes back as editedPlan.
func (d *approvalDialog) startEdit() tea.Cmd {
	if d.edit == nil {
		return nil
	}
	return d.edit(d.plan, filepath.Base(d.q.PlanFile))
}

// editedPlan is the plan as the editor left it.
type editedPlan struct {
	text string
	err  error
}

// editPlan writes plan to a scratch file named name for the editor; it
// runs in a command.
func editPlan(a *app.App, plan, name string) tea.Msg {
	dir, err := os.MkdirTemp("", "ponder-plan-")
	if err != nil {
		return editedPlan{err: fmt.Errorf("cannot edit: %w", err)}
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(plan), 0o600); err != nil {
		os.RemoveAll(dir)
		return editedPlan{err: fmt.Errorf("cannot edit: %w", err)}
	}
	cmd, ended, err := a.EditorCommand(path)
	if err != nil {
		os.RemoveAll(dir)
		return editedPlan{err: fmt.Errorf("cannot open the editor: %w", err)}
	}
	return editorReady{purpose: "approval", path: path, cmd: cmd, ended: ended}
}

// readEditedPlan reads the scratch file back and removes it.
func readEditedPlan(path string, editErr error) tea.Cmd {
	return func() tea.Msg {
		defer os.RemoveAll(filepath.Dir(path))
		if editErr != nil {
			return editedPlan{err: fmt.Errorf("the editor failed: %w", editErr)}
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return editedPlan{err: fmt.Errorf("cannot read the edited plan: %w", err)}
		}
		return editedPlan{text: string(data)}
	}
}

// editorReturned takes the plan back from the editor.
func (d *approvalDialog) editorReturned(e editedPlan) {
	if e.err != nil {
		d.problem = sentenceCase(e.err.Error())
		return
	}
	if e.text != d.plan {
		d.plan, d.edited, d.offset = e.text, true, 0
	}
}

// sentenceCase starts s with a capital letter.
func sentenceCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func (d *approvalDialog) view(width, height int) string {
	th := d.th
	inner := max(20, width-4)
	planLines := strings.Split(strings.TrimRight(markdown.Render(d.plan, inner, th.markdown), "\n"), "\n")
	path := tildePath(d.q.PlanFile)
	if d.edited {
		path += "  (edited by you)"
	}
	// Everything but the plan, to know how many plan lines fit: the
	// frame adds four lines (borders, title, the blank under it).
	rest := []string{"", "Would you like to proceed?", d.options.view(th, inner)}
	if d.typing {
		d.feedback.SetWidth(inner)
		rest = append(rest, "", d.feedback.View())
	}
	if d.problem != "" {
		rest = append(rest, th.warn.Render(d.problem))
	}
	rest = append(rest, "", th.faint.Render(ansi.Truncate("enter select · pgup/pgdn scroll · ctrl+g edit the plan · esc dismiss (plan mode stays on)", inner, "…")))
	fixed := 4 + 3 // frame, then path and the two rules
	for _, r := range rest {
		fixed += strings.Count(r, "\n") + 1
	}
	d.height = max(3, min(len(planLines), height-fixed))
	d.offset = min(d.offset, max(0, len(planLines)-d.height))
	shown := planLines[d.offset:min(len(planLines), d.offset+d.height)]
	more := ""
	if d.offset+d.height < len(planLines) {
		more = " ↓ more (pgdn)"
	}
	if d.offset > 0 {
		more += " ↑ (pgup)"
	}
	var b strings.Builder
	b.WriteString(th.dim.Render(ansi.Truncate(path, inner, "…")) + "\n")
	b.WriteString(th.faint.Render(strings.Repeat("─", inner)) + "\n")
	b.WriteString(strings.Join(shown, "\n") + "\n")
	b.WriteString(th.faint.Render(strings.Repeat("─", max(0, inner-ansi.StringWidth(more)))+more) + "\n")
	b.WriteString(strings.Join(rest, "\n"))
	return frame(th, "Ready to code? Here is ponder's plan", b.String(), width)
}
