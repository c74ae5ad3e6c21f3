package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
)

// slashCommand is one command of the / menu.
type slashCommand struct {
	name, args, help string
}

var slashCommands = []slashCommand{
	{"/plan", "[open|description]", "enter plan mode, plan a task, or show the plan"},
	{"/clear", "", "start a fresh conversation"},
	{"/compact", "[instructions]", "summarise the conversation to free context"},
	{"/resume", "", "pick an earlier session of this project"},
	{"/rewind", "", "put files and conversation back to before a turn"},
	{"/model", "[name]", "show or change the model"},
	{"/todos", "", "show the todo list"},
	{"/diff", "", "show the changes ponder made in this session"},
	{"/init", "", "write an AGENTS.md draft from a look at the repository"},
	{"/context", "", "show how much of the context window is used"},
	{"/permissions", "", "list the permission rules in force and their sources"},
	{"/status", "", "show the session, model, mode and sandbox"},
	{"/cost", "", "show this run's token use and cost by model"},
	{"/mcp", "", "show the MCP servers and their tools; mark a tool read-only"},
	{"/help", "", "keys and commands"},
	{"/exit", "", "quit ponder"},
}

// menu is the completion list shown while typing a command.
type menu struct {
	open     bool
	matches  []slashCommand
	selected int
	// files says the menu completes an @-mention (mention.go).
	files bool
}

// updateMenu opens the menu while the input is a command name being typed.
func (m *Model) updateMenu() {
	if m.menu.files {
		if _, ok := m.mentionToken(); ok {
			return // the @ menu follows its own word (mention.go)
		}
		m.menu = menu{}
	}
	v := m.in.Value()
	if !strings.HasPrefix(v, "/") || strings.ContainsAny(v, " \n") {
		m.menu.open = false
		return
	}
	var matches []slashCommand
	for _, c := range m.allCommands() {
		if strings.HasPrefix(c.name, v) {
			matches = append(matches, c)
		}
	}
	m.menu = menu{open: len(matches) > 0, matches: matches, selected: min(m.menu.selected, max(0, len(matches)-1))}
}

// menuKey moves through the menu and completes the selected command.
func (m *Model) menuKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	switch k.String() {
	case "up":
		m.menu.selected = (m.menu.selected + len(m.menu.matches) - 1) % len(m.menu.matches)
		return nil, true
	case "down":
		m.menu.selected = (m.menu.selected + 1) % len(m.menu.matches)
		return nil, true
	case "tab", "enter":
		if m.menu.files {
			return m.completeFile(), true
		}
	}
	switch k.String() {
	case "tab":
		c := m.menu.matches[m.menu.selected]
		text := c.name
		if c.args != "" {
			text += " "
		}
		m.in.SetValue(text)
		m.updateMenu()
		return nil, true
	case "enter":
		// Enter on a partly typed command runs the selected one.
		c := m.menu.matches[m.menu.selected]
		m.in.Reset()
		m.menu.open = false
		m.in.AddHistory(c.name)
		return m.command(c.name), true
	}
	return nil, false
}

// command runs a slash command.
func (m *Model) command(line string) tea.Cmd {
	name, args, _ := strings.Cut(line, " ")
	args = strings.TrimSpace(args)
	switch name {
	case "/plan":
		return m.planCommand(args)
	case "/clear":
		if m.running {
			m.hint = "Wait for the turn to finish, or press Esc, before clearing."
			return nil
		}
		m.conv = newConversation(m.th)
		m.todos = nil
		a := m.app
		return func() tea.Msg {
			a.Clear()
			return nil
		}
	case "/compact":
		return m.compact(args)
	case "/resume":
		if m.running {
			m.hint = "Wait for the turn to finish, or press Esc, before switching sessions."
			return nil
		}
		return m.listSessions()
	case "/model":
		if args == "" {
			msg := "Model: " + m.app.Model() + "."
			if others := m.app.ModelChoices()[1:]; len(others) > 0 {
				msg += " Others this session knows: " + strings.Join(others, ", ") + "."
			}
			m.conv.notice("info", msg+" Use /model NAME to change it.")
			return nil
		}
		if err := m.app.SetModel(args); err != nil {
			m.conv.notice("warning", err.Error())
			return nil
		}
		m.conv.notice("info", "Model changed to "+m.app.Model()+" from the next request on.")
	case "/team":
		m.conv.add(&item{kind: itemNotice, title: "info", text: m.teamList()})
	case "/rewind":
		return m.openRewind()
	case "/todos":
		a := m.app
		return func() tea.Msg {
			items, err := a.Todos()
			return todosLoaded{items, err}
		}
	case "/diff":
		return m.diffCommand()
	case "/init":
		return m.initCommand(line)
	case "/context":
		return m.infoCommand(func(a *app.App) string { return a.ContextUse().Summary() })
	case "/permissions":
		return m.infoCommand(func(a *app.App) string { return a.PermissionsSummary() })
	case "/status":
		return m.infoCommand(statusText)
	case "/mcp":
		m.openMCP()
	case "/cost":
		m.conv.add(&item{kind: itemNotice, title: "info", text: m.app.CostSummary()})
	case "/help":
		m.conv.add(&item{kind: itemNotice, title: "info", text: helpText(m.customCommands()) + m.skillsHelp()})
	case "/exit", "/quit":
		return tea.Quit
	default:
		if m.app.IsCommand(line) {
			return m.sendTurn(line)
		}
		m.conv.notice("warning", fmt.Sprintf("Unknown command %s. Type / to see the commands.", name))
	}
	return nil
}

// planShown is what /plan did, back from the app.
type planShown struct{ out app.PlanOutcome }

// planCommand runs /plan through the app, which owns what it means; it
// changes the mode and reads the plan, so it runs outside Update.
func (m *Model) planCommand(args string) tea.Cmd {
	a, running := m.app, m.running
	return func() tea.Msg { return planShown{a.PlanCommand(args, running)} }
}

// planShown shows what /plan did.
func (m *Model) planShown(msg planShown) tea.Cmd {
	out := msg.out
	switch {
	case out.Refused:
		m.hint = out.Message
	case out.OpenEditor != "":
		return m.openEditor("plan", out.OpenEditor)
	case out.Plan != "":
		m.conv.add(&item{kind: itemPlan, text: out.Plan, title: out.PlanFile})
	default:
		m.conv.notice("info", out.Message)
	}
	if out.Query != "" {
		return m.sendTurn(out.Query)
	}
	return nil
}

// todosLoaded is the todo list, read for /todos.
type todosLoaded struct {
	items []event.TodoItem
	err   error
}

func (m *Model) showTodos(msg todosLoaded) {
	if msg.err != nil {
		m.conv.notice("warning", msg.err.Error())
	}
	if len(msg.items) == 0 {
		m.conv.notice("info", "No todo list yet.")
		return
	}
	m.conv.add(&item{kind: itemNotice, title: "info", text: "Todos:\n" + todoLines(msg.items, m.th)})
}

func todoLines(items []event.TodoItem, th theme) string {
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteByte('\n')
		}
		switch it.Status {
		case event.TodoCompleted:
			b.WriteString(th.dim.Render("  ☑ " + it.Content))
		case event.TodoInProgress:
			b.WriteString(th.accent.Render("  ▶ " + it.ActiveForm))
		default:
			b.WriteString("  ☐ " + it.Content)
		}
	}
	return b.String()
}

func helpText(custom []slashCommand) string {
	var b strings.Builder
	b.WriteString("Commands:\n")
	for _, c := range slashCommands {
		fmt.Fprintf(&b, "  %-12s %-20s %s\n", c.name, c.args, c.help)
	}
	if len(custom) > 0 {
		b.WriteString("Custom commands:\n")
		for _, c := range custom {
			fmt.Fprintf(&b, "  %-12s %-20s %s\n", c.name, c.args, c.help)
		}
	}
	b.WriteString("Keys:\n")
	for _, k := range [][2]string{
		{"enter", "send (shift+enter, alt+enter or \\ at line end: new line)"},
		{"shift+tab", "cycle mode: default, accept edits, plan mode"},
		{"esc", "interrupt the model"},
		{"esc esc", "rewind (when idle)"},
		{"ctrl+g", "open the plan in $VISUAL / $EDITOR"},
		{"ctrl+o", "show tool results in full"},
		{"pgup/pgdn", "scroll the conversation"},
		{"ctrl+c ×2", "quit"},
	} {
		fmt.Fprintf(&b, "  %-10s %s\n", k[0], k[1])
	}
	return strings.TrimRight(b.String(), "\n")
}

// customCommands are the session's custom slash commands as menu entries.
func (m *Model) customCommands() []slashCommand {
	var out []slashCommand
	for _, c := range m.app.Commands() {
		help := c.Description
		if help == "" {
			help = "(" + c.Scope + " command)"
		} else {
			help += " (" + c.Scope + ")"
		}
		args := c.ArgumentHint
		if args == "" {
			args = "[arguments]"
		}
		out = append(out, slashCommand{name: c.Name, args: args, help: help})
	}
	return out
}

// allCommands are the built-in commands, then the custom ones.
func (m *Model) allCommands() []slashCommand {
	return append(append([]slashCommand(nil), slashCommands...), m.customCommands()...)
}

// skillsHelp lists the skills the model is offered, for /help.
func (m *Model) skillsHelp() string {
	list := m.app.Skills()
	if len(list) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nSkills (the model loads them when a task fits):")
	for _, s := range list {
		fmt.Fprintf(&b, "\n  %-20s %s (%s)", s.Name, s.Description, s.Scope)
	}
	return b.String()
}
