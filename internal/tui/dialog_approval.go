package tui

import (
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/markdown"
	"github.com/ponder-agent/ponder/internal/tui/input"
)

// rejectOption is the option id that sends the plan back.
const rejectOption = "reject"

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
	// edit runs the editor on a file; set by the model.
	edit    func(path string) tea.Cmd
	tmpPath string
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
	if opt == rejectOption {
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
		d.ans = event.Answer{Option: rejectOption, Feedback: text}
		if d.edited {
			p := d.plan
			d.ans.EditedPlan = &p
		}
		return answered, nil
	}
	return stay, nil
}

// startEdit writes the plan to a scratch file and opens the editor on it;
// editorReturned reads it back.
func (d *approvalDialog) startEdit() tea.Cmd {
	if d.edit == nil {
		return nil
	}
	dir, err := os.MkdirTemp("", "ponder-plan-")
	if err != nil {
		d.problem = "Cannot edit: " + err.Error()
		return nil
	}
	d.tmpPath = filepath.Join(dir, filepath.Base(d.q.PlanFile))
	if err := os.WriteFile(d.tmpPath, []byte(d.plan), 0o600); err != nil {
		d.problem = "Cannot edit: " + err.Error()
		return nil
	}
	return d.edit(d.tmpPath)
}

func (d *approvalDialog) editorReturned(path string, err error) {
	defer os.RemoveAll(filepath.Dir(path))
	if err != nil {
		d.problem = "The editor failed: " + err.Error()
		return
	}
	data, rerr := os.ReadFile(path)
	if rerr != nil {
		d.problem = "Cannot read the edited plan: " + rerr.Error()
		return
	}
	if string(data) != d.plan {
		d.plan, d.edited, d.offset = string(data), true, 0
	}
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
