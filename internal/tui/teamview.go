package tui

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
)

// A lead's screen can show one of its teammates instead of its own
// conversation: Shift+Down and Shift+Up go round the lead and its
// teammates, Esc comes back to the lead. The teammate's conversation
// streams in as it works when it runs in this process; a teammate process
// is shown from its transcript, read again as it grows. What the user
// types there goes to the teammate's inbox.

// teamRefresh is how often the transcript of a teammate process is read
// again while it is shown.
const teamRefresh = time.Second

// teamView is the teammate shown instead of the lead.
type teamView struct {
	name string
	// gen tells this view's messages from those of views closed since.
	gen  int
	view *app.TeammateView // nil until opened
	conv *conversation
	mode string
	// seen is the number of messages of the transcript shown, and last
	// the text of the last one (teammate processes).
	seen int
	last string
	// pending are messages the user sent that its transcript does not
	// show yet.
	pending []string
}

// Messages of the teammate view.
type (
	teammateOpened struct {
		gen int
		v   *app.TeammateView
		err error
	}
	teammateEvent struct {
		gen int
		e   event.Event
		ok  bool
	}
	teammateTick struct{ gen int }
	teammateRead struct {
		gen  int
		hist []event.Message
		mode string
		err  error
	}
	teammateSent struct {
		name string
		err  error
	}
)

// teamOrder is the round Shift+Down goes: the lead (""), then its
// teammates by name.
func (m *Model) teamOrder() []string {
	names := []string{""}
	for n := range m.teammates {
		names = append(names, n)
	}
	sort.Strings(names[1:])
	return names
}

// cycleTeam shows the next (step 1) or previous (step -1) member.
func (m *Model) cycleTeam(step int) tea.Cmd {
	order := m.teamOrder()
	if len(order) == 1 {
		m.hint = "No teammates to show: the lead's model starts them with SpawnTeammate."
		return nil
	}
	cur := 0
	if m.team != nil {
		for i, n := range order {
			if n == m.team.name {
				cur = i
			}
		}
	}
	return m.showMember(order[(cur+step+len(order))%len(order)])
}

// showMember shows teammate name, or the lead for "".
func (m *Model) showMember(name string) tea.Cmd {
	if m.team != nil {
		if m.team.name == name {
			return nil
		}
		if m.team.view != nil {
			m.team.view.Close()
		}
		m.team = nil
	}
	m.scroll = 0
	if name == "" {
		m.in.SetPlaceholder(leadPlaceholder)
		return nil
	}
	m.teamGen++
	m.team = &teamView{name: name, gen: m.teamGen, conv: newConversation(m.th)}
	m.team.conv.expanded = m.conv.expanded
	m.in.SetPlaceholder("Message " + name + " (it reads it at its next turn)")
	a, gen := m.app, m.teamGen
	return func() tea.Msg {
		v, err := a.ViewTeammate(name)
		return teammateOpened{gen: gen, v: v, err: err}
	}
}

// teamMsg handles the messages of the teammate view; handled is false
// for any other message.
func (m *Model) teamMsg(msg tea.Msg) (cmd tea.Cmd, handled bool) {
	t := m.team
	switch msg := msg.(type) {
	case teammateOpened:
		if t == nil || msg.gen != t.gen {
			if msg.v != nil {
				msg.v.Close()
			}
			return nil, true
		}
		if msg.err != nil {
			t.conv.notice("warning", msg.err.Error())
			return nil, true
		}
		t.view, t.mode = msg.v, msg.v.Mode
		t.showHistory(msg.v.History)
		if msg.v.Live() {
			return waitTeammate(t.gen, msg.v.Events), true
		}
		return teammateAfter(t.gen), true
	case teammateEvent:
		if t == nil || msg.gen != t.gen || !msg.ok {
			return nil, true
		}
		t.fold(msg.e)
		return waitTeammate(t.gen, t.view.Events), true
	case teammateTick:
		if t == nil || msg.gen != t.gen {
			return nil, true
		}
		a, name, gen := m.app, t.name, t.gen
		return func() tea.Msg {
			hist, mode, err := a.TeammateTranscript(name)
			return teammateRead{gen: gen, hist: hist, mode: mode, err: err}
		}, true
	case teammateRead:
		if t == nil || msg.gen != t.gen {
			return nil, true
		}
		if msg.err == nil {
			t.mode = msg.mode
			t.showHistory(msg.hist)
		}
		return teammateAfter(t.gen), true
	case teammateSent:
		text := "Sent to " + msg.name + "'s inbox; it reads it at its next turn."
		level := "info"
		if msg.err != nil {
			text, level = "Not sent to "+msg.name+": "+msg.err.Error(), "warning"
		}
		if t != nil && t.name == msg.name {
			t.conv.notice(level, text)
		} else {
			m.conv.notice(level, text)
		}
		return nil, true
	}
	return nil, false
}

// waitTeammate waits for the next event of a live teammate view.
func waitTeammate(gen int, ch <-chan event.Event) tea.Cmd {
	return func() tea.Msg {
		e, ok := <-ch
		return teammateEvent{gen: gen, e: e, ok: ok}
	}
}

// teammateAfter asks for the transcript of a teammate process again in a
// while.
func teammateAfter(gen int) tea.Cmd {
	return tea.Tick(teamRefresh, func(time.Time) tea.Msg { return teammateTick{gen: gen} })
}

// showHistory shows the teammate's conversation so far, and the user's
// messages it has not read yet after it. Nothing is redrawn when it has
// not grown.
func (t *teamView) showHistory(hist []event.Message) {
	last := ""
	if n := len(hist); n > 0 {
		last = messageText(hist[n-1]) + typedText(hist[n-1])
	}
	if len(hist) == t.seen && last == t.last && t.seen > 0 {
		return
	}
	t.seen, t.last = len(hist), last
	var kept []string
	for _, p := range t.pending {
		if !historyHas(hist, p) {
			kept = append(kept, p)
		}
	}
	t.pending = kept
	expanded := t.conv.expanded
	t.conv = newConversation(t.conv.th)
	t.conv.expanded = expanded
	t.conv.loadHistory(hist)
	for _, p := range t.pending {
		t.conv.add(&item{kind: itemUser, text: p})
	}
}

// historyHas says a user message of hist holds text.
func historyHas(hist []event.Message, text string) bool {
	for _, msg := range hist {
		if msg.Role == "user" && strings.Contains(typedText(msg), text) {
			return true
		}
	}
	return false
}

// fold adds one event of a live teammate to its conversation.
func (t *teamView) fold(e event.Event) {
	c := t.conv
	switch e := e.(type) {
	case event.TextDelta:
		if e.AgentID == "" {
			it := c.streaming("")
			it.text += e.Text
			it.invalidate()
		}
	case event.Retrying:
		c.dropStreaming(e.AgentID)
	case event.AssistantMessage:
		if e.AgentID != "" {
			return
		}
		c.finishStreaming("", messageText(e.Message))
		for _, b := range e.Message.Content {
			if b.Type == event.BlockToolUse {
				c.toolStarted("", b.ID, b.Name, b.Input)
			}
		}
	case event.ToolStarted:
		if e.AgentID == "" {
			c.toolStarted("", e.ID, e.Name, e.Input)
		}
	case event.ToolFinished:
		if e.AgentID == "" {
			c.toolFinished("", e.ID, e.Name, e.Content, e.Summary, e.Diff, e.IsError, e.Duration)
		}
	case event.ToolRefused:
		if e.AgentID == "" {
			c.toolRefused("", e.ID, e.Tool, e.Input, e.Reason)
		}
	case event.Notice:
		if e.Text != "" {
			c.notice(e.Level, e.Text)
		}
	case event.ModeChanged:
		t.mode = e.To
		c.notice("info", "Mode: "+app.ModeTitle(e.To)+".")
	case event.PlanApproved:
		c.notice("info", "Plan approved; now in "+app.ModeTitle(e.Mode)+".")
	case event.TeamMessage:
		switch {
		case !e.Sent && e.Type == "text":
			c.add(&item{kind: itemUser, text: "(from " + e.From + ") " + e.Text})
			t.dropPending(e.Text)
		case e.Sent && e.Type == "text":
			c.notice("info", fmt.Sprintf("%s → %s: %s", e.From, e.To, firstLine(e.Text)))
		case !e.Sent && e.Type == "plan_approval_response":
			verdict := "rejected"
			if e.Approved != nil && *e.Approved {
				verdict = "approved"
			}
			c.notice("info", fmt.Sprintf("The lead %s the plan.", verdict))
		case e.Sent && e.Type == "plan_approval_request":
			c.notice("info", "Plan sent to the lead for approval.")
		}
	}
}

// dropPending forgets a message the user sent once the teammate has it:
// the conversation shows it from then on.
func (t *teamView) dropPending(text string) {
	for i, p := range t.pending {
		if p == text {
			t.pending = append(t.pending[:i], t.pending[i+1:]...)
			return
		}
	}
}

// messageTeammate sends what the user typed to the teammate shown.
func (m *Model) messageTeammate(text string) tea.Cmd {
	t := m.team
	if t.view == nil || !t.view.Live() {
		// A live view shows the message when the teammate takes it.
		t.pending = append(t.pending, text)
		t.conv.add(&item{kind: itemUser, text: text})
	}
	a, name := m.app, t.name
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return teammateSent{name: name, err: a.MessageTeammate(ctx, name, text)}
	}
}

// shown is the conversation on screen: the teammate's or the lead's.
func (m *Model) shown() *conversation {
	if m.team != nil {
		return m.team.conv
	}
	return m.conv
}

// teamHeader says whose conversation is shown, when it is a teammate's.
func (m *Model) teamHeader(w int) string {
	t := m.team
	if t == nil {
		return ""
	}
	state := stateWords(m.teammates[t.name].State)
	how := "live"
	if t.view != nil && !t.view.Live() {
		how = "from its transcript"
	}
	s := fmt.Sprintf("▸ teammate %s · %s · %s · %s", t.name, app.ModeTitle(t.mode), state, how)
	return m.th.accent.Render(ansi.Truncate(s, w, "…"))
}

// leadPlaceholder is the input's placeholder on the lead's conversation.
const leadPlaceholder = "Ask ponder to do something, or / for commands"
