package tui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/tui/input"
)

// questionDialog relays the model's multiple-choice questions: one tab per
// question, options with their descriptions, multi-select where asked, a
// free-text "other" answer, and a review tab before submitting.
type questionDialog struct {
	q      event.Question
	th     theme
	tab    int // len(questions) is the review tab
	states []questionState
	other  input.Model
	typing bool
	ans    event.Answer
}

type questionState struct {
	cursor   int          // over the options, then "Other"
	picked   map[int]bool // chosen options
	freeText string       // the "Other" answer
}

func newQuestionDialog(q event.Question, th theme) *questionDialog {
	st := make([]questionState, len(q.Questions))
	for i := range st {
		st[i].picked = map[int]bool{}
	}
	other := input.New()
	other.SetPlaceholder("type your answer (enter to keep it)")
	return &questionDialog{q: q, th: th, states: st, other: other}
}

func (d *questionDialog) id() string           { return d.q.ID }
func (d *questionDialog) answer() event.Answer { return d.ans }
func (d *questionDialog) review() bool         { return d.tab == len(d.q.Questions) }

func (d *questionDialog) key(msg tea.Msg) (outcome, tea.Cmd) {
	if d.typing {
		return d.typeOther(msg)
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return stay, nil
	}
	switch k.String() {
	case "esc":
		return dismissed, nil
	case "left", "shift+tab":
		d.tab = max(0, d.tab-1)
		return stay, nil
	case "right", "tab":
		d.tab = min(len(d.q.Questions), d.tab+1)
		return stay, nil
	}
	if d.review() {
		if k.String() == "enter" {
			d.ans = event.Answer{Answers: d.collect()}
			return answered, nil
		}
		return stay, nil
	}
	q := d.q.Questions[d.tab]
	st := &d.states[d.tab]
	n := len(q.Options) + 1
	switch k.String() {
	case "up", "k":
		st.cursor = (st.cursor + n - 1) % n
	case "down", "j":
		st.cursor = (st.cursor + 1) % n
	case "space":
		if q.MultiSelect && st.cursor < len(q.Options) {
			st.picked[st.cursor] = !st.picked[st.cursor]
		}
	case "enter":
		if st.cursor == len(q.Options) {
			d.typing = true
			d.other.SetValue(st.freeText)
			d.other.Focus()
			return stay, nil
		}
		if q.MultiSelect {
			if len(st.chosen()) == 0 {
				st.picked[st.cursor] = true
			}
		} else {
			st.picked = map[int]bool{st.cursor: true}
			st.freeText = ""
		}
		d.tab++
	}
	return stay, nil
}

func (d *questionDialog) typeOther(msg tea.Msg) (outcome, tea.Cmd) {
	text, done, back := typeInto(&d.other, msg)
	switch {
	case back:
		d.typing = false
	case done:
		st := &d.states[d.tab]
		st.freeText = strings.TrimSpace(text)
		if !d.q.Questions[d.tab].MultiSelect && st.freeText != "" {
			st.picked = map[int]bool{}
		}
		d.typing = false
		d.tab++
	}
	return stay, nil
}

func (s questionState) chosen() []int {
	var out []int
	for i, on := range s.picked {
		if on {
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return out
}

// collect turns the choices into the answers map.
func (d *questionDialog) collect() map[string]string {
	out := map[string]string{}
	for i, q := range d.q.Questions {
		st := d.states[i]
		var parts []string
		for _, o := range st.chosen() {
			parts = append(parts, q.Options[o].Label)
		}
		if st.freeText != "" {
			parts = append(parts, st.freeText)
		}
		out[q.Question] = strings.Join(parts, ", ")
	}
	return out
}

func (d *questionDialog) view(width, height int) string {
	th := d.th
	inner := max(20, width-4)
	var tabs []string
	for i, q := range d.q.Questions {
		label := q.Header
		if label == "" {
			label = fmt.Sprintf("Q%d", i+1)
		}
		if len(d.states[i].chosen()) > 0 || d.states[i].freeText != "" {
			label = "✓ " + label
		}
		if i == d.tab {
			label = th.selected.Render("[" + label + "]")
		} else {
			label = th.dim.Render(" " + label + " ")
		}
		tabs = append(tabs, label)
	}
	review := " Review "
	if d.review() {
		review = th.selected.Render("[Review]")
	} else {
		review = th.dim.Render(review)
	}
	var b strings.Builder
	b.WriteString(strings.Join(append(tabs, review), " ") + "\n\n")
	if d.review() {
		answers := d.collect()
		for _, q := range d.q.Questions {
			a := answers[q.Question]
			if a == "" {
				a = th.warn.Render("(no answer)")
			}
			b.WriteString(wrap(q.Question, inner, "  ") + "\n  " + th.accent.Render("→ ") + a + "\n")
		}
		b.WriteString("\n" + th.faint.Render("enter submit · ←/→ change an answer · esc dismiss"))
		return frame(th, "ponder has questions", b.String(), width)
	}
	q := d.q.Questions[d.tab]
	st := d.states[d.tab]
	b.WriteString(th.bold.Render(wrap(q.Question, inner, "")) + "\n")
	if q.MultiSelect {
		b.WriteString(th.dim.Render("(choose any; space toggles)") + "\n")
	}
	b.WriteString("\n")
	for i, o := range q.Options {
		cursor, style := "  ", th.unselected
		if i == st.cursor {
			cursor, style = "❯ ", th.selected
		}
		box := fmt.Sprintf("%d.", i+1)
		if q.MultiSelect {
			box = "[ ]"
			if st.picked[i] {
				box = "[x]"
			}
		} else if st.picked[i] {
			box = "(•)"
		}
		b.WriteString(style.Render(cursor+box+" "+o.Label) + "\n")
		if o.Description != "" {
			b.WriteString(th.dim.Render(wrap("     "+o.Description, inner, "     ")) + "\n")
		}
	}
	cursor, style := "  ", th.unselected
	if st.cursor == len(q.Options) {
		cursor, style = "❯ ", th.selected
	}
	other := "Other: type your own answer"
	if st.freeText != "" {
		other = "Other: " + st.freeText
	}
	b.WriteString(style.Render(cursor+"…  "+other) + "\n")
	if d.typing {
		d.other.SetWidth(inner)
		b.WriteString("\n" + d.other.View() + "\n")
	}
	b.WriteString("\n" + th.faint.Render("enter choose · ←/→ questions · esc dismiss"))
	return frame(th, "ponder has questions", b.String(), width)
}
