package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/markdown"
	"github.com/ponder-agent/ponder/internal/tui/input"
)

// approvalDialog shows the plan for approval: rendered markdown that
// scrolls, its path, the permissions it asks for, the model that will
// implement it, the approval options, Ctrl+G to edit the plan in the
// editor first, comments on its lines (c), and a feedback field for "no,
// keep planning". A plan that was sent back before opens on its lines,
// with what changed since marked.
type approvalDialog struct {
	q        event.Question
	th       theme
	plan     string
	edited   bool
	options  choice
	feedback input.Model
	typing   bool
	ans      event.Answer
	// edit opens the plan in the editor; set by the model.
	edit    func(plan, name string) tea.Cmd
	problem string

	body pane
	// lines shows the plan's source lines, numbered, instead of the
	// rendered markdown; annotating moves a cursor over them.
	lines      bool
	annotating bool
	cursor     int // 0-based line of the plan under the cursor
	commenting bool
	comment    input.Model
	notes      map[int]string // comments by 1-based line
	changed    map[int]bool   // 1-based lines new since the plan was sent back

	// grantOutside also grants the rules marked as reaching outside the
	// project; model is the index of the chosen model in q.Models.
	grantOutside bool
	model        int
	// rows are the screen rows where each plan line starts, set by
	// sourceLines.
	rows []int
}

func newApprovalDialog(q event.Question, th theme) *approvalDialog {
	fb := input.New()
	fb.SetPlaceholder("what should change in the plan? (enter to send)")
	c := input.New()
	c.SetPlaceholder("your comment on this line (enter to keep it, empty to remove it)")
	d := &approvalDialog{q: q, th: th, plan: q.Plan, feedback: fb, comment: c, notes: map[int]string{}, changed: map[int]bool{}}
	for _, n := range q.ChangedLines {
		d.changed[n] = true
	}
	d.lines = len(d.changed) > 0
	d.options = choice{labels: d.labels()}
	return d
}

func (d *approvalDialog) id() string           { return d.q.ID }
func (d *approvalDialog) answer() event.Answer { return d.ans }

// labels are the options as they read now: while the user has comments
// on lines, each that carries them says so (approve with them as notes,
// or send them back).
func (d *approvalDialog) labels() []string {
	labels := make([]string, len(d.q.Options))
	for i, o := range d.q.Options {
		labels[i] = o.Label
		if len(d.notes) > 0 && o.WithNotes != "" {
			labels[i] = o.WithNotes
		}
	}
	return labels
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func (d *approvalDialog) key(msg tea.Msg) (outcome, tea.Cmd) {
	switch {
	case d.typing:
		return d.typeFeedback(msg)
	case d.commenting:
		return d.typeComment(msg)
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return stay, nil
	}
	if d.annotating {
		return d.annotateKey(k)
	}
	d.problem = ""
	switch k.String() {
	case "esc":
		return dismissed, nil
	case "ctrl+g":
		return stay, d.startEdit()
	case "c":
		d.lines, d.annotating = true, true
		d.body.show(d.cursor)
		return stay, nil
	case "v":
		d.lines = !d.lines
		d.body.offset = 0
		return stay, nil
	case "g":
		if d.outsideCount() > 0 {
			d.grantOutside = !d.grantOutside
		}
		return stay, nil
	case "m":
		if len(d.q.Models) > 1 {
			d.model = (d.model + 1) % len(d.q.Models)
		}
		return stay, nil
	}
	if d.body.scroll(k.String()) || !d.options.key(k) {
		return stay, nil
	}
	opt := d.q.Options[d.options.selected].ID
	if opt == event.OptionReject {
		d.typing = true
		d.feedback.Focus()
		return stay, nil
	}
	if len(d.notes) > 0 && d.q.Options[d.options.selected].WithNotes == "" {
		d.problem = "Your comments cannot go with this answer; remove them (an empty comment) to pick it."
		return stay, nil
	}
	d.ans = event.Answer{Option: opt, Grant: d.grants(), Model: d.chosenModel(), Annotations: d.annotations()}
	if d.edited {
		p := d.plan
		d.ans.EditedPlan = &p
	}
	return answered, nil
}

// annotateKey moves the cursor over the plan's lines; Enter comments on
// the line, Esc goes back to the options.
func (d *approvalDialog) annotateKey(k tea.KeyPressMsg) (outcome, tea.Cmd) {
	n := len(textLines(d.plan))
	switch k.String() {
	case "esc", "c":
		d.annotating = false
	case "up", "k":
		d.cursor = max(0, d.cursor-1)
	case "down", "j":
		d.cursor = min(max(0, n-1), d.cursor+1)
	case "pgdown", "space":
		d.cursor = min(max(0, n-1), d.cursor+max(1, d.body.height-1))
	case "pgup":
		d.cursor = max(0, d.cursor-max(1, d.body.height-1))
	case "enter":
		if n == 0 {
			break
		}
		d.commenting = true
		d.comment.SetValue(d.notes[d.cursor+1])
		d.comment.Focus()
	}
	return stay, nil
}

// typeComment edits the comment on the cursor's line.
func (d *approvalDialog) typeComment(msg tea.Msg) (outcome, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "enter" {
		text := strings.TrimSpace(d.comment.Value())
		if text == "" {
			delete(d.notes, d.cursor+1)
		} else {
			d.notes[d.cursor+1] = text
		}
		d.commenting = false
		d.comment.SetValue("")
		d.options.labels = d.labels()
		return stay, nil
	}
	_, _, back := typeInto(&d.comment, msg)
	if back {
		d.commenting = false
		d.comment.SetValue("")
	}
	return stay, nil
}

func (d *approvalDialog) typeFeedback(msg tea.Msg) (outcome, tea.Cmd) {
	text, done, back := typeInto(&d.feedback, msg)
	switch {
	case back:
		d.typing = false
	case done:
		d.ans = event.Answer{Option: event.OptionReject, Feedback: text, Annotations: d.annotations()}
		if d.edited {
			p := d.plan
			d.ans.EditedPlan = &p
		}
		return answered, nil
	}
	return stay, nil
}

// annotations are the comments, in line order.
func (d *approvalDialog) annotations() []event.Annotation {
	var out []event.Annotation
	for line, c := range d.notes {
		out = append(out, event.Annotation{Line: line, Comment: c})
	}
	slices.SortFunc(out, func(a, b event.Annotation) int { return a.Line - b.Line })
	return out
}

// grants are the rules the approval grants: those inside the project,
// and the others when the user asked for them (g). Nil when the plan asks
// for none.
func (d *approvalDialog) grants() []string {
	if len(d.q.Permissions) == 0 {
		return nil
	}
	out := []string{}
	for _, p := range d.q.Permissions {
		if !p.Outside || d.grantOutside {
			out = append(out, p.Rule)
		}
	}
	return out
}

func (d *approvalDialog) outsideCount() int {
	n := 0
	for _, p := range d.q.Permissions {
		if p.Outside {
			n++
		}
	}
	return n
}

// chosenModel is the model picked for the implementation, "" when it is
// the one in use.
func (d *approvalDialog) chosenModel() string {
	if d.model == 0 || d.model >= len(d.q.Models) {
		return ""
	}
	return d.q.Models[d.model]
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
		d.plan, d.edited, d.body.offset = e.text, true, 0
		d.cursor = min(d.cursor, max(0, len(textLines(d.plan))-1))
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
	path := tildePath(d.q.PlanFile)
	if d.edited {
		path += " (edited by you)"
	}
	// Everything but the plan, to know how many plan lines fit.
	var rest []string
	rest = append(rest, d.permissionLines(inner)...)
	if len(d.q.Models) > 1 {
		rest = append(rest, th.dim.Render(ansi.Truncate("Implemented by "+d.q.Models[d.model]+" (m to change)", inner, "…")))
	}
	switch {
	case d.commenting:
		d.comment.SetWidth(inner)
		rest = append(rest, th.dim.Render(fmt.Sprintf("Comment on line %d:", d.cursor+1)), d.comment.View())
	case d.annotating:
		rest = append(rest, th.dim.Render(ansi.Truncate("↑/↓ pick a line · enter comment on it · esc back to the options", inner, "…")))
	default:
		rest = append(rest, d.options.view(th, inner))
	}
	if d.typing {
		d.feedback.SetWidth(inner)
		rest = append(rest, d.feedback.View())
	}
	if d.problem != "" {
		rest = append(rest, th.warn.Render(wrap(d.problem, inner, "")))
	}
	if !d.annotating && !d.commenting {
		keys := "enter select · c comment on lines · ctrl+g edit · v view · esc dismiss"
		rest = append(rest, th.faint.Render(ansi.Truncate(keys, inner, "…")))
	}
	restText := strings.Join(rest, "\n")
	fixed := 3 + 2 + lineCount(restText) // frame, the pane's two rules
	if d.lines {
		d.body.lines = d.sourceLines(inner)
	} else {
		d.body.lines = strings.Split(strings.TrimRight(markdown.Render(d.plan, inner, th.markdown), "\n"), "\n")
	}
	title := path
	if len(d.changed) > 0 {
		note := fmt.Sprintf("+ marks the %s new since you sent the plan back", plural(len(d.changed), "line"))
		if !d.lines {
			note = fmt.Sprintf("%s new since you sent the plan back (v shows them)", plural(len(d.changed), "line"))
		}
		restText = th.ok.Render(ansi.Truncate(note, inner, "…")) + "\n" + restText
		fixed++
	}
	if d.annotating {
		d.body.height = max(3, min(len(d.body.lines), height-fixed))
		d.body.show(d.cursorRow())
	}
	body := d.body.view(th, title, inner, max(3, height-fixed))
	return compactFrame(th, approvalTitle(d.q.AgentID), body+"\n"+restText, width)
}

// permissionLines list what the plan asks to be granted.
func (d *approvalDialog) permissionLines(inner int) []string {
	if len(d.q.Permissions) == 0 {
		return nil
	}
	th := d.th
	head := "Approving grants for this session:"
	if n := d.outsideCount(); n > 0 {
		head = "Approving grants for this session (g also grants those marked ⚠):"
	}
	out := []string{th.dim.Render(ansi.Truncate(head, inner, "…"))}
	for _, p := range d.q.Permissions {
		mark := "✓ "
		if p.Outside && !d.grantOutside {
			mark = "✗ "
		}
		line := mark + markdown.PlainLine(p.Rule)
		if p.Reason != "" {
			line += " — " + markdown.PlainLine(p.Reason)
		}
		if p.Outside {
			out = append(out, th.warn.Render(ansi.Truncate(line+" ⚠", inner, "…")))
			out = append(out, th.warn.Render(ansi.Truncate("    needs its own yes: "+markdown.PlainLine(p.Why), inner, "…")))
			continue
		}
		out = append(out, ansi.Truncate(line, inner, "…"))
	}
	return out
}

// sourceLines are the plan's lines, numbered and wrapped, with changed
// lines marked +, the cursor's line marked ❯ while annotating, and each
// comment under its line.
func (d *approvalDialog) sourceLines(inner int) []string {
	th := d.th
	src := textLines(d.plan)
	digits := len(fmt.Sprint(len(src)))
	gutter := 2 + digits + 1
	var out []string
	d.rows = d.rows[:0]
	for i, l := range src {
		d.rows = append(d.rows, len(out))
		mark := "  "
		switch {
		case d.annotating && i == d.cursor:
			mark = "❯ "
		case d.changed[i+1]:
			mark = "+ "
		}
		num := fmt.Sprintf("%*d ", digits, i+1)
		parts := wrapPlain(l, inner-gutter, "")
		for j, part := range parts {
			prefix := mark + num
			if j > 0 {
				prefix = strings.Repeat(" ", gutter)
			}
			line := prefix + part
			switch {
			case d.annotating && i == d.cursor:
				line = th.selected.Render(line)
			case d.changed[i+1]:
				line = th.ok.Render(line)
			}
			out = append(out, line)
		}
		if c, ok := d.notes[i+1]; ok {
			for _, cl := range wrapPlain("✎ "+c, inner-gutter, "  ") {
				out = append(out, strings.Repeat(" ", gutter)+th.accent.Render(cl))
			}
		}
	}
	return out
}

// cursorRow is the screen row of the cursor's line in sourceLines.
func (d *approvalDialog) cursorRow() int {
	if d.cursor < len(d.rows) {
		return d.rows[d.cursor]
	}
	return 0
}

// textLines splits a plan into its lines, as annotations count them.
func textLines(s string) []string {
	if s == "" {
		return nil
	}
	ls := strings.Split(s, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// compactFrame is frame without the blank line under the title, for
// dialogs that need every line.
func compactFrame(th theme, title, body string, width int) string {
	inner := max(20, width-4)
	return th.dialogBorder.Width(inner + 4).Render(th.dialogTitle.Render(title) + "\n" + body)
}
