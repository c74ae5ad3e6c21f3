package tui

import (
	"encoding/json"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/markdown"
)

// itemKind says what a conversation entry is.
type itemKind int

const (
	itemUser itemKind = iota
	itemAssistant
	itemTool
	itemNotice
	itemPlan
	itemDiff
)

// toolStatus is where a tool call stands.
type toolStatus int

const (
	toolRunning toolStatus = iota
	toolDone
	toolFailed
	toolRefused
)

// item is one entry of the scrollback. Rendered lines are cached per width
// and thrown away when the item changes, so a long conversation costs only
// the items that moved.
type item struct {
	kind    itemKind
	text    string // user text, assistant markdown, notice text, plan markdown
	title   string // plan path, notice level
	agentID string

	// tool calls
	toolID  string
	tool    string
	input   json.RawMessage
	status  toolStatus
	result  string
	summary string
	diff    string // the change a Write or Edit made
	took    time.Duration
	// children are subagent steps shown under a Task call.
	children []string
	// changes are the files /diff shows.
	changes []app.FileChange

	cacheWidth int
	cacheOK    bool
	lines      []string
}

func (it *item) invalidate() { it.cacheOK = false }

// conversation is the scrollback.
type conversation struct {
	items    []*item
	expanded bool // tool results shown in full
	md       *markdown.Renderer
	th       theme
	byTool   map[string]*item
}

func newConversation(th theme) *conversation {
	return &conversation{md: markdown.NewRenderer(th.markdown), th: th, byTool: map[string]*item{}}
}

func (c *conversation) add(it *item) *item {
	c.items = append(c.items, it)
	if it.toolID != "" {
		c.byTool[it.toolID] = it
	}
	return it
}

// streaming returns the assistant item text is streaming into, making one
// if the last item is not one.
func (c *conversation) streaming(agentID string) *item {
	if n := len(c.items); n > 0 {
		last := c.items[n-1]
		if last.kind == itemAssistant && last.agentID == agentID && last.title == "streaming" {
			return last
		}
	}
	return c.add(&item{kind: itemAssistant, agentID: agentID, title: "streaming"})
}

// finishStreaming replaces a streamed answer with the complete one.
func (c *conversation) finishStreaming(agentID, text string) {
	for i := len(c.items) - 1; i >= 0; i-- {
		it := c.items[i]
		if it.kind == itemAssistant && it.agentID == agentID && it.title == "streaming" {
			if strings.TrimSpace(text) == "" {
				c.items = append(c.items[:i], c.items[i+1:]...)
				return
			}
			it.text, it.title = text, ""
			it.invalidate()
			return
		}
	}
	if strings.TrimSpace(text) != "" {
		c.add(&item{kind: itemAssistant, agentID: agentID, text: text})
	}
}

// dropStreaming forgets text streamed by a failed attempt that is retried.
func (c *conversation) dropStreaming(agentID string) {
	for i := len(c.items) - 1; i >= 0; i-- {
		it := c.items[i]
		if it.kind == itemAssistant && it.agentID == agentID && it.title == "streaming" {
			c.items = append(c.items[:i], c.items[i+1:]...)
			return
		}
	}
}

// lines renders the whole conversation at width.
func (c *conversation) lines(width int) []string {
	var out []string
	for _, it := range c.items {
		if !it.cacheOK || it.cacheWidth != width {
			it.lines = c.render(it, width)
			it.cacheWidth, it.cacheOK = width, true
		}
		out = append(out, it.lines...)
	}
	return out
}

func (c *conversation) render(it *item, width int) []string {
	th := c.th
	var s string
	switch it.kind {
	case itemUser:
		s = th.user.Render("> ") + wrap(it.text, width-2, "  ")
	case itemAssistant:
		s = strings.TrimRight(c.md.Render(it.text, width-2), "\n")
		s = indent(s, "  ")
		if it.title == "streaming" {
			s += th.faint.Render(" ▍")
		}
	case itemNotice:
		style := th.dim
		if it.title == "warning" {
			style = th.warn
		}
		s = style.Render(wrap("• "+it.text, width, "  "))
	case itemPlan:
		head := th.planHint.Render("Current plan") + "  " + th.dim.Render(tildePath(it.title))
		s = head + "\n" + indent(strings.TrimRight(c.md.Render(it.text, width-4), "\n"), "  │ ")
	case itemTool:
		s = c.renderTool(it, width)
	case itemDiff:
		s = c.renderDiff(it, width)
	}
	return append(strings.Split(s, "\n"), "")
}

// renderTool draws a call on one line (marker, name, argument, status) and
// its result shortened to a line, or in full when results are expanded.
func (c *conversation) renderTool(it *item, width int) string {
	th := c.th
	var mark string
	switch it.status {
	case toolRunning:
		mark = th.accent.Render("◌")
	case toolDone:
		mark = th.ok.Render("●")
	case toolFailed:
		mark = th.errorText.Render("●")
	case toolRefused:
		mark = th.warn.Render("⊘")
	}
	head := mark + " " + th.toolName.Render(it.tool) + th.toolArg.Render("("+ansi.Truncate(display(toolArgument(it.tool, it.input)), max(10, width-len(it.tool)-20), "…")+")")
	switch it.status {
	case toolRefused:
		head += " " + th.warn.Render("refused")
	case toolFailed:
		if it.tool == "ExitPlanMode" && it.summary != "" {
			// A plan sent back is no failure: say what happened.
			head += " " + th.warn.Render(it.summary)
			break
		}
		head += " " + th.errorText.Render("failed")
	case toolRunning:
		head += " " + th.dim.Render("running…")
	}
	lines := []string{head}
	for _, ch := range it.children {
		lines = append(lines, th.dim.Render("  │ "+ansi.Truncate(ch, width-6, "…")))
	}
	body := it.summary
	if it.status != toolDone || body == "" {
		body = firstLine(it.result)
	}
	if it.status == toolDone && it.diff != "" {
		// A change made: its summary, then the diff, folded unless
		// results are expanded.
		lines = append(lines, th.dim.Render("  └ "+ansi.Truncate(display(it.summary), width-6, "…")))
		lines = append(lines, c.diffBlock(it.diff, width)...)
	} else if c.expanded && it.result != "" {
		// In full: every line, wrapped rather than cut at the edge.
		for i, l := range wrapPlain(strings.TrimRight(it.result, "\n"), width-4, "") {
			prefix := "  └ "
			if i > 0 {
				prefix = "    "
			}
			lines = append(lines, th.dim.Render(prefix+l))
		}
	} else if body = display(body); body != "" {
		style := th.dim
		if it.status == toolRefused {
			style = th.warn
		} else if it.status == toolFailed {
			style = th.errorText
		}
		lines = append(lines, style.Render("  └ "+ansi.Truncate(body, width-6, "…")))
	}
	return strings.Join(lines, "\n")
}

// toolArgument picks the input field that says most about a call.
func toolArgument(tool string, input json.RawMessage) string {
	var m map[string]any
	_ = json.Unmarshal(input, &m)
	for _, k := range []string{"command", "file_path", "pattern", "path", "url", "description", "subagent_type"} {
		if v, ok := m[k].(string); ok && v != "" {
			return strings.ReplaceAll(v, "\n", " ")
		}
	}
	if tool == "TodoWrite" {
		return "update todos"
	}
	return ""
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// wrap word-wraps s to width, indenting continuation lines.
func wrap(s string, width int, cont string) string {
	if width < 10 {
		width = 10
	}
	w := lipgloss.Wrap(s, width, "")
	return strings.ReplaceAll(w, "\n", "\n"+cont)
}

func indent(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}

func (c *conversation) toolStarted(agentID, id, name string, input json.RawMessage) {
	if it, ok := c.byTool[id]; ok {
		it.status = toolRunning
		it.invalidate()
		return
	}
	c.add(&item{kind: itemTool, agentID: agentID, toolID: id, tool: name, input: input, status: toolRunning})
}

func (c *conversation) toolFinished(agentID, id, name, content, summary, diff string, isErr bool, took time.Duration) {
	it, ok := c.byTool[id]
	if !ok {
		it = c.add(&item{kind: itemTool, agentID: agentID, toolID: id, tool: name})
	}
	if it.status != toolRefused {
		it.status = toolDone
		if isErr {
			it.status = toolFailed
		}
	}
	it.result, it.summary, it.diff, it.took = content, summary, diff, took
	it.invalidate()
}

func (c *conversation) toolRefused(agentID, id, name string, input json.RawMessage, reason string) {
	it, ok := c.byTool[id]
	if !ok {
		it = c.add(&item{kind: itemTool, agentID: agentID, toolID: id, tool: name, input: input})
	}
	it.status, it.result = toolRefused, reason
	it.invalidate()
}

func (c *conversation) notice(level, text string) {
	c.add(&item{kind: itemNotice, title: level, text: display(text)})
}

func (c *conversation) toggleExpanded() {
	c.expanded = !c.expanded
	for _, it := range c.items {
		if it.kind == itemTool {
			it.invalidate()
		}
	}
}
