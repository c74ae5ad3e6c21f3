package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
)

// mcpText describes the session's MCP servers: each server's state (and
// why it failed), and each tool with ponder's mark (whether plan mode may
// use it) beside the server's own claim.
func mcpText(servers []event.MCPServer) string {
	if len(servers) == 0 {
		return "No MCP servers. Add them under mcpServers in your settings, in a trusted project's .mcp.json, or with --mcp-config."
	}
	var b strings.Builder
	for i, s := range servers {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(mcpServerLine(s) + "\n")
		if s.Error != "" {
			fmt.Fprintf(&b, "  %s\n", s.Error)
		}
		for _, t := range s.Tools {
			fmt.Fprintf(&b, "  %s — %s\n", mcpToolName(t), mcpToolMark(t))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func mcpServerLine(s event.MCPServer) string {
	return fmt.Sprintf("%s: %s (%s, from %s)", s.Name, s.Status, s.Transport, s.From)
}

func mcpToolName(t event.MCPTool) string {
	if t.Name == "" {
		return t.Remote
	}
	return t.Name
}

// mcpToolMark is ponder's mark on a tool, then what the server claims
// (its readOnlyHint, shown, never trusted).
func mcpToolMark(t event.MCPTool) string {
	var mark string
	switch {
	case t.Skipped != "":
		return "not offered: " + t.Skipped
	case t.ReadOnly:
		mark = "read-only, plan mode too"
	default:
		mark = "asks; not in plan mode"
	}
	if t.Annotated {
		return mark + " · server says read-only"
	}
	return mark + " · server says nothing"
}

// mcpDialog is /mcp: the servers and their tools, with a cursor over the
// tools the user may mark read-only (r), which the app writes to the
// user's settings.
type mcpDialog struct {
	th      theme
	servers []event.MCPServer
	// rows are the tools that can be picked, by name; cursor indexes it.
	rows   []string
	cursor int
	note   string
}

func newMCPDialog(th theme, servers []event.MCPServer) *mcpDialog {
	d := &mcpDialog{th: th}
	d.refresh(servers)
	return d
}

// refresh shows servers as they are now, keeping the cursor's tool.
func (d *mcpDialog) refresh(servers []event.MCPServer) {
	at := ""
	if d.cursor < len(d.rows) {
		at = d.rows[d.cursor]
	}
	d.servers, d.rows, d.cursor = servers, nil, 0
	for _, s := range servers {
		for _, t := range s.Tools {
			if t.Skipped == "" && t.Name != "" {
				if t.Name == at {
					d.cursor = len(d.rows)
				}
				d.rows = append(d.rows, t.Name)
			}
		}
	}
}

func (d *mcpDialog) id() string           { return "" }
func (d *mcpDialog) answer() event.Answer { return event.Answer{} }

// mcpMarked is what marking a tool read-only did, back from the app.
type mcpMarked struct {
	name, path string
	err        error
	servers    []event.MCPServer
}

// markCmd marks the named tool read-only through the app, outside Update.
func markCmd(a *app.App, name string) tea.Cmd {
	return func() tea.Msg {
		path, err := a.MarkMCPToolReadOnly(name)
		return mcpMarked{name: name, path: path, err: err, servers: a.MCPServers()}
	}
}

func (d *mcpDialog) key(msg tea.Msg) (outcome, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return stay, nil
	}
	switch k.String() {
	case "esc", "enter", "q":
		return dismissed, nil
	case "up", "k":
		d.cursor = max(0, d.cursor-1)
	case "down", "j":
		d.cursor = min(max(0, len(d.rows)-1), d.cursor+1)
	case "r":
		if d.cursor < len(d.rows) {
			d.note = ""
			return stay, func() tea.Msg { return markRequest{d.rows[d.cursor]} }
		}
	}
	return stay, nil
}

// markRequest asks the model to mark a tool read-only through the app.
type markRequest struct{ name string }

// marked shows what marking did.
func (d *mcpDialog) marked(msg mcpMarked) {
	if msg.err != nil {
		d.note = "Not marked: " + msg.err.Error()
		return
	}
	d.refresh(msg.servers)
	d.note = fmt.Sprintf("%s is read-only now and in later sessions (%s).", msg.name, tildePath(msg.path))
}

func (d *mcpDialog) view(width, height int) string {
	th := d.th
	inner := max(20, width-4)
	var lines []string
	row := 0
	for _, s := range d.servers {
		lines = append(lines, ansi.Truncate(display(mcpServerLine(s)), inner, "…"))
		if s.Error != "" {
			lines = append(lines, th.warn.Render(ansi.Truncate("  "+display(s.Error), inner, "…")))
		}
		for _, t := range s.Tools {
			prefix := "  "
			style := th.dim
			if t.Skipped == "" && t.Name != "" {
				if row == d.cursor {
					prefix, style = "❯ ", th.selected
				}
				row++
			}
			lines = append(lines, style.Render(ansi.Truncate(prefix+display(mcpToolName(t))+" — "+mcpToolMark(t), inner, "…")))
		}
	}
	if len(lines) > height-6 {
		lines = lines[:max(1, height-6)]
	}
	body := strings.Join(lines, "\n")
	if d.note != "" {
		body += "\n\n" + th.accent.Render(wrap(display(d.note), inner, ""))
	}
	keys := "↑/↓ pick a tool · r mark it read-only (your settings) · esc close"
	body += "\n\n" + th.faint.Render(ansi.Truncate(keys, inner, "…"))
	return frame(th, "MCP servers", body, width)
}

// openMCP is /mcp: the dialog when there are servers, else a notice.
func (m *Model) openMCP() {
	servers := m.app.MCPServers()
	if len(servers) == 0 {
		m.conv.add(&item{kind: itemNotice, title: "info", text: mcpText(nil)})
		return
	}
	m.dialogs = append(m.dialogs, newMCPDialog(m.th, servers))
}
