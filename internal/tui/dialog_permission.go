package tui

import (
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/tui/input"
)

// permissionDialog asks whether one tool call may run: yes; yes and don't
// ask again for calls of this kind; no, with what to do instead. It shows
// what the call would do: the diff of an edit, the whole command.
type permissionDialog struct {
	q        event.Question
	th       theme
	options  choice
	feedback input.Model
	typing   bool
	ans      event.Answer
	body     pane
}

func newPermissionDialog(q event.Question, th theme) *permissionDialog {
	labels := []string{"Yes"}
	if q.Suggest != "" {
		labels = append(labels, "Yes, and don't ask again this session for "+q.Suggest)
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
	if d.body.scroll(k.String()) || !d.options.key(k) {
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
	var head, rest []string
	title := "Allow this call?"
	var body []string
	bodyTitle := ""
	switch {
	case d.q.Path != "":
		title = "Allow this change?"
		head = append(head, th.toolName.Render(d.q.Tool)+" "+th.toolArg.Render(ansi.Truncate(display(d.q.Path), inner-len(d.q.Tool)-1, "…")))
		if d.q.Diff != "" {
			added, removed := diffCounts(d.q.Diff)
			bodyTitle = fmt.Sprintf("+%d −%d lines", added, removed)
			body = diffLines(th, d.q.Diff, inner)
		} else {
			head = append(head, th.dim.Render("(the change cannot be shown: the file is not plain text, or too large)"))
		}
	case d.q.Tool == "Bash":
		// The whole command, wrapped; a long one scrolls.
		head = append(head, th.toolName.Render("Bash"))
		cmd := wrapPlain("$ "+commandText(d.q.Input), inner, "  ")
		if len(cmd) <= 6 {
			head = append(head, th.toolArg.Render(strings.Join(cmd, "\n")))
		} else {
			body, bodyTitle = cmd, fmt.Sprintf("the whole command, %d lines", len(cmd))
		}
	default:
		line := th.toolName.Render(d.q.Tool)
		if arg := toolArgument(d.q.Tool, d.q.Input); arg != "" {
			line += th.toolArg.Render("(" + ansi.Truncate(display(arg), inner-len(d.q.Tool)-2, "…") + ")")
		}
		head = append(head, line)
	}
	if d.q.Reason != "" && d.q.Path == "" {
		head = append(head, th.dim.Render(wrap(display(d.q.Reason), inner, "")))
	}
	rest = append(rest, "", d.options.view(th, inner))
	if d.typing {
		d.feedback.SetWidth(inner)
		rest = append(rest, "", d.feedback.View())
	}
	keys := "enter select · esc dismiss (the call does not run)"
	if len(body) > 0 {
		keys = "enter select · pgup/pgdn scroll · esc dismiss (the call does not run)"
	}
	rest = append(rest, "", th.faint.Render(ansi.Truncate(keys, inner, "…")))
	if d.q.AgentID != "" {
		title = strings.Replace(title, "?", " by "+askerName(d.q.AgentID)+"?", 1)
	}
	text := strings.Join(head, "\n")
	if len(body) > 0 {
		// The frame takes four lines, the pane's rules two.
		fixed := 4 + 2 + lineCount(text) + lineCount(strings.Join(rest, "\n"))
		d.body.lines = body
		text += "\n" + d.body.view(th, bodyTitle, inner, max(3, height-fixed))
	}
	return frame(th, title, text+"\n"+strings.Join(rest, "\n"), width)
}

// commandText is a Bash call's command, whole.
func commandText(input json.RawMessage) string {
	var in struct {
		Command string `json:"command"`
	}
	_ = json.Unmarshal(input, &in)
	return in.Command
}

// diffCounts counts a unified diff's added and removed lines.
func diffCounts(diff string) (added, removed int) {
	for _, l := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "+++ "), strings.HasPrefix(l, "--- "):
		case strings.HasPrefix(l, "+"):
			added++
		case strings.HasPrefix(l, "-"):
			removed++
		}
	}
	return added, removed
}

func lineCount(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(s, "\n") + 1
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
