// Package tui is ponder's interactive terminal interface, built on
// bubbletea. It is a front end only: it renders the session's events and
// answers its questions through package app, and holds no plan-mode rule
// of its own. Update does no I/O: whatever touches files, the transcript
// or another process runs in a tea.Cmd that reports back with a message.
package tui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/tui/input"
)

// Messages the model handles besides terminal input.
type (
	eventMsg    struct{ e event.Event }
	eventsEnded struct{}
	turnDone    struct {
		res app.TurnResult
		err error
	}
	tickMsg    struct{}
	editorDone struct {
		purpose string // "plan" or "approval"
		path    string
		err     error
	}
	resumed struct {
		a   *app.App
		err error
	}
	// switched says the session shown was replaced and the old one closed.
	switched struct {
		planFile string
		err      error
	}
	// notice is something a command found out, to show as a notice.
	notice struct{ level, text string }
	// hintMsg is a transient line a command wants shown.
	hintMsg string
)

// Model is the whole interface.
type Model struct {
	app  *app.App
	th   theme
	demo string // a label shown when the session is scripted

	width, height int
	conv          *conversation
	in            input.Model
	scroll        int // lines scrolled up from the bottom

	events     <-chan event.Event
	stopEvents func()

	running   bool
	cancel    context.CancelFunc
	turnStart time.Time
	tokens    int
	frame     int
	queued    []string
	// teammates is what the lead knows of its team (team.go).
	teammates map[string]event.TeammateState
	// team is the teammate shown instead of the lead, or nil
	// (teamview.go); teamGen counts the views opened.
	team    *teamView
	teamGen int
	// waited is the time the running turn spent waiting for the user's
	// answers; waitSince is when the dialog now open appeared (zero when
	// none is). The spinner counts neither as working.
	waited    time.Duration
	waitSince time.Time
	// pickAtStart opens the session picker when the interface starts.
	pickAtStart bool

	dialogs []dialog
	menu    menu

	todos []event.TodoItem
	// parent maps a subagent to the Task call that launched it.
	parent map[string]string
	phase  string
	// planFile is the plan file, as plan mode last named it.
	planFile string
	lastCtl  time.Time // last Ctrl+C
	lastEsc  time.Time // last Esc while idle (Esc Esc rewinds)
	hint     string    // a transient line above the status bar
	now      func() time.Time
	first    string // a prompt to send at start
	// askPending asks again, at start, for the approval of a plan an
	// earlier headless run left waiting.
	askPending bool
}

// newModel builds the interface over a started app.
func newModel(a *app.App, th theme) *Model {
	m := &Model{app: a, th: th, conv: newConversation(th), in: input.New(), width: 100, height: 30, now: time.Now, parent: map[string]string{}}
	m.events, m.stopEvents = a.Subscribe(1024)
	m.planFile = a.PlanFile()
	m.in.Focus()
	m.in.SetPlaceholder(leadPlaceholder)
	m.loadHistory()
	return m
}

// Init starts listening to the session.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.waitEvent()}
	if m.pickAtStart {
		m.pickAtStart = false
		cmds = append(cmds, m.listSessions())
	}
	if m.askPending {
		m.askPending = false
		cmds = append(cmds, m.startTurn(func(ctx context.Context) (app.TurnResult, error) { return m.app.AskPending(ctx) }))
	}
	if m.first != "" {
		text := m.first
		m.first = ""
		cmds = append(cmds, func() tea.Msg { return input.Submitted{Text: text} })
	}
	return tea.Batch(cmds...)
}

func (m *Model) waitEvent() tea.Cmd {
	ch := m.events
	return func() tea.Msg {
		e, ok := <-ch
		if !ok {
			return eventsEnded{}
		}
		return eventMsg{e}
	}
}

// Update handles one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer m.noteWaiting()
	if cmd, ok := m.teamMsg(msg); ok {
		return m, cmd
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.in.SetWidth(m.width - 2)
		return m, nil
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.PasteMsg:
		if len(m.dialogs) > 0 {
			return m, m.dialogKey(msg)
		}
		if mention, ok := pastedImage(msg.Content); ok {
			msg.Content = mention
		}
		var cmd tea.Cmd
		m.in, cmd = m.in.Update(msg)
		return m, cmd
	case input.Submitted:
		return m, m.submit(msg.Text)
	case eventMsg:
		cmd := m.handleEvent(msg.e)
		return m, tea.Batch(cmd, m.waitEvent())
	case eventsEnded:
		return m, nil
	case turnDone:
		return m, m.turnEnded(msg)
	case tickMsg:
		if !m.running {
			return m, nil
		}
		m.frame++
		return m, tick()
	case editorDone:
		return m, m.editorReturned(msg)
	case resumed:
		return m, m.switchApp(msg)
	case switched:
		if msg.err != nil {
			m.conv.notice("warning", msg.err.Error())
		}
		m.planFile = msg.planFile
		return m, nil
	case notice:
		m.conv.notice(msg.level, msg.text)
		return m, nil
	case hintMsg:
		m.hint = string(msg)
		return m, nil
	case sessionsListed:
		return m, m.showResumePicker(msg)
	case planShown:
		return m, m.planShown(msg)
	case todosLoaded:
		m.showTodos(msg)
		return m, nil
	case itemMsg:
		m.conv.add(msg.it)
		m.scroll = 0
		return m, nil
	case markRequest:
		return m, markCmd(m.app, msg.name)
	case mcpMarked:
		if d, ok := m.activeDialog().(*mcpDialog); ok {
			d.marked(msg)
		}
		return m, nil
	case rewound:
		m.showRewound(msg)
		return m, nil
	case fileMatches:
		m.showFileMatches(msg)
		return m, nil
	case editorReady:
		return m, m.execEditor(msg)
	case editedPlan:
		if d, ok := m.activeDialog().(*approvalDialog); ok {
			d.editorReturned(msg)
		}
		return m, nil
	case compacted:
		m.running = false
		if m.cancel != nil {
			m.cancel()
			m.cancel = nil
		}
		if msg.err != nil {
			m.conv.notice("warning", msg.err.Error())
		}
		return m, nil
	}
	return m, nil
}

func tick() tea.Cmd {
	return tea.Tick(100*time.Millisecond, func(time.Time) tea.Msg { return tickMsg{} })
}

// sendTurn starts a turn with text.
func (m *Model) sendTurn(text string) tea.Cmd {
	if m.running {
		m.queued = append(m.queued, text)
		m.hint = "Queued; it will be sent when the current turn ends."
		return nil
	}
	m.conv.add(&item{kind: itemUser, text: text})
	m.scroll = 0
	a := m.app
	return m.startTurn(func(ctx context.Context) (app.TurnResult, error) { return a.Send(ctx, text) })
}

// startTurn runs work as the current turn, interruptible with Esc.
func (m *Model) startTurn(work func(context.Context) (app.TurnResult, error)) tea.Cmd {
	ctx, cancel := context.WithCancel(context.Background())
	m.running, m.cancel, m.turnStart, m.frame, m.waited, m.waitSince = true, cancel, m.now(), 0, 0, time.Time{}
	return tea.Batch(tick(), func() tea.Msg {
		res, err := work(ctx)
		return turnDone{res: res, err: err}
	})
}

func (m *Model) turnEnded(msg turnDone) tea.Cmd {
	m.running = false
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
	switch {
	case msg.err != nil:
		m.conv.notice("warning", msg.err.Error())
	case msg.res.StopReason == app.StopInterrupted:
		m.conv.notice("info", "Interrupted. Tell ponder what to do instead.")
	case msg.res.StopReason == app.StopMaxTurns:
		m.conv.notice("warning", "Stopped after the maximum number of model requests.")
	}
	if len(m.queued) > 0 {
		next := m.queued[0]
		m.queued = m.queued[1:]
		m.hint = ""
		return m.sendTurn(next)
	}
	return m.teamTurn()
}

// interrupt cancels the running turn; questions it asked are withdrawn.
func (m *Model) interrupt() {
	if m.running && m.cancel != nil {
		m.cancel()
		m.queued = nil
	}
}

// Close releases the session.
func (m *Model) Close() {
	m.interrupt()
	m.showMember("")
	m.stopEvents()
}

// noteWaiting keeps count of the time dialogs wait for the user.
func (m *Model) noteWaiting() {
	open := m.activeDialog() != nil
	switch {
	case open && m.waitSince.IsZero():
		m.waitSince = m.now()
	case !open && !m.waitSince.IsZero():
		m.waited += m.now().Sub(m.waitSince)
		m.waitSince = time.Time{}
	}
}
