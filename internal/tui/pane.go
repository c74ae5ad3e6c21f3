package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/ponder-agent/ponder/internal/markdown"
)

// pane is a scrollable block of lines inside a dialog: a plan, a diff, a
// long command. The dialog sets its lines and height each time it draws.
type pane struct {
	lines  []string
	offset int
	height int
}

// scroll handles the paging keys; it reports whether key was one.
func (p *pane) scroll(key string) bool {
	page := max(1, p.height-1)
	switch key {
	case "pgdown", "ctrl+d", "space":
		p.offset += page
	case "pgup", "ctrl+u":
		p.offset = max(0, p.offset-page)
	case "home":
		p.offset = 0
	case "end":
		p.offset = len(p.lines)
	default:
		return false
	}
	return true
}

// show makes line i visible.
func (p *pane) show(i int) {
	if i < p.offset {
		p.offset = i
	} else if p.height > 0 && i >= p.offset+p.height {
		p.offset = i - p.height + 1
	}
}

// view draws the visible lines between two rules; the top rule carries
// title, the bottom one says where more lines are. height is at most the
// lines there are.
func (p *pane) view(th theme, title string, width, height int) string {
	p.height = max(1, min(len(p.lines), height))
	p.offset = max(0, min(p.offset, len(p.lines)-p.height))
	shown := p.lines[p.offset:min(len(p.lines), p.offset+p.height)]
	more := ""
	if p.offset+p.height < len(p.lines) {
		more = " ↓ more (pgdn)"
	}
	if p.offset > 0 {
		more += " ↑ (pgup)"
	}
	var b strings.Builder
	b.WriteString(rule(th, title, width) + "\n")
	if len(shown) > 0 {
		b.WriteString(strings.Join(shown, "\n") + "\n")
	}
	b.WriteString(th.faint.Render(strings.Repeat("─", max(0, width-ansi.StringWidth(more))) + more))
	return b.String()
}

// rule is a horizontal line with a title at its start.
func rule(th theme, title string, width int) string {
	if title == "" {
		return th.faint.Render(strings.Repeat("─", width))
	}
	title = ansi.Truncate(title, max(1, width-4), "…")
	return th.faint.Render("── ") + th.dim.Render(title) + th.faint.Render(" "+strings.Repeat("─", max(0, width-4-ansi.StringWidth(title))))
}

// diffLines colours a unified diff for the screen, one screen line per
// diff line (cut at width): added lines green, removed red, hunk headers
// dim. Each line is made safe to print first.
func diffLines(th theme, diff string, width int) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(diff, "\n"), "\n") {
		if strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ ") {
			continue // the path is shown above
		}
		l = ansi.Truncate(markdown.PlainLine(l), width, "…")
		switch {
		case strings.HasPrefix(l, "+"):
			out = append(out, th.ok.Render(l))
		case strings.HasPrefix(l, "-"):
			out = append(out, th.errorText.Render(l))
		case strings.HasPrefix(l, "@@"), strings.HasPrefix(l, "…"):
			out = append(out, th.dim.Render(l))
		default:
			out = append(out, l)
		}
	}
	return out
}

// wrapPlain wraps text made safe to print to width, breaking long words,
// each continuation line starting with cont.
func wrapPlain(s string, width int, cont string) []string {
	var out []string
	width = max(8, width-ansi.StringWidth(cont))
	for _, l := range strings.Split(s, "\n") {
		for i, part := range wrapAtSpaces(markdown.PlainLine(l), width) {
			if i > 0 {
				part = cont + part
			}
			out = append(out, part)
		}
	}
	return out
}

// wrapAtSpaces breaks a line at spaces only (a command's "--option" stays
// whole), cutting a word longer than width where it must.
func wrapAtSpaces(l string, width int) []string {
	var out []string
	cur := ""
	for _, word := range strings.Split(l, " ") {
		switch {
		case cur == "":
			cur = word
		case ansi.StringWidth(cur)+1+ansi.StringWidth(word) <= width:
			cur += " " + word
		default:
			out = append(out, cur)
			cur = word
		}
		for ansi.StringWidth(cur) > width {
			out = append(out, ansi.Truncate(cur, width, ""))
			cur = ansi.TruncateLeft(cur, width, "")
		}
	}
	return append(out, cur)
}
