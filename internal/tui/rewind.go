package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
)

// maxRewindTurns is how many of the latest turns the rewind list shows
// (the choice list picks by a single digit).
const maxRewindTurns = 9

// rewindPicker lists the session's turns, then what to put back.
type rewindPicker struct {
	th    theme
	dir   string
	turns []app.TurnInfo
	list  choice
	// step 0 picks the turn, step 1 what to restore.
	step int
	what choice
	// whats are the app's names for the labels of what.
	whats []string
}

// openRewind opens the rewind list (/rewind, Esc Esc).
func (m *Model) openRewind() tea.Cmd {
	if m.running {
		m.hint = "Wait for the turn to finish, or press Esc, before rewinding."
		return nil
	}
	turns := m.app.Turns()
	if len(turns) == 0 {
		m.conv.notice("info", "Nothing to rewind yet: no turn has been sent in this session.")
		return nil
	}
	if len(turns) > maxRewindTurns {
		turns = turns[len(turns)-maxRewindTurns:]
	}
	p := &rewindPicker{th: m.th, dir: m.app.Dir(), turns: turns}
	for _, t := range turns {
		p.list.labels = append(p.list.labels, p.label(t))
	}
	p.list.selected = len(turns) - 1
	m.dialogs = append(m.dialogs, p)
	return nil
}

// label describes a turn in one line.
func (p *rewindPicker) label(t app.TurnInfo) string {
	prompt, _, _ := strings.Cut(strings.TrimSpace(t.Prompt), "\n")
	if prompt == "" {
		prompt = "(continued turn)"
	}
	var notes []string
	switch n := len(t.Files); n {
	case 0:
	case 1:
		notes = append(notes, p.rel(t.Files[0]))
	default:
		notes = append(notes, fmt.Sprintf("%d files", n))
	}
	if len(t.Commands) > 0 {
		notes = append(notes, plural(len(t.Commands), "shell command")+" not restorable")
	}
	s := fmt.Sprintf("turn %d  %s", t.N, prompt)
	if len(notes) > 0 {
		s += "  · " + strings.Join(notes, " · ")
	}
	return s
}

// escIdle handles Esc with no turn running: pressed twice in a row, it
// opens the rewind list.
func (m *Model) escIdle() tea.Cmd {
	now := m.now()
	if now.Sub(m.lastEsc) < quitWindow {
		m.lastEsc = time.Time{}
		return m.openRewind()
	}
	m.lastEsc = now
	if len(m.app.Turns()) > 0 {
		m.hint = "Press Esc again to rewind."
	}
	return nil
}

// rel shows a path relative to the working directory when it is inside.
func (p *rewindPicker) rel(path string) string {
	if r, err := filepath.Rel(p.dir, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

func (p *rewindPicker) id() string           { return "" }
func (p *rewindPicker) answer() event.Answer { return event.Answer{} }

// chosen is the turn and what to restore, once answered ("" for cancel).
func (p *rewindPicker) chosen() (int, string) {
	return p.turns[p.list.selected].N, p.whats[p.what.selected]
}

func (p *rewindPicker) key(msg tea.Msg) (outcome, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return stay, nil
	}
	if k.String() == "esc" {
		if p.step == 1 {
			p.step = 0
			return stay, nil
		}
		return dismissed, nil
	}
	if p.step == 0 {
		if p.list.key(k) {
			p.step = 1
			p.options()
		}
		return stay, nil
	}
	if p.what.key(k) {
		if p.whats[p.what.selected] == "" {
			return dismissed, nil
		}
		return answered, nil
	}
	return stay, nil
}

// options offers what may be put back for the chosen turn.
func (p *rewindPicker) options() {
	t := p.turns[p.list.selected]
	p.what, p.whats = choice{}, nil
	add := func(label, what string) {
		p.what.labels = append(p.what.labels, label)
		p.whats = append(p.whats, what)
	}
	if t.Conversation {
		add("Restore files and conversation", app.RewindBoth)
		add("Restore the conversation only", app.RewindConversation)
	}
	add("Restore files only", app.RewindFiles)
	add("Never mind", "")
}

func (p *rewindPicker) view(width, height int) string {
	inner := max(20, width-4)
	if p.step == 0 {
		body := p.list.view(p.th, inner) + "\n\n" + p.th.faint.Render("enter choose · esc cancel")
		return frame(p.th, "Rewind to before a turn", body, width)
	}
	t := p.turns[p.list.selected]
	var b strings.Builder
	fmt.Fprintf(&b, "Turn %d: %s\n", t.N, firstLine(t.Prompt))
	if len(t.Files) > 0 {
		b.WriteString("Files ponder changed since then are put back as they were.\n")
	}
	for _, c := range t.Commands {
		b.WriteString(p.th.faint.Render("Not restorable (shell): "+c) + "\n")
	}
	if !t.Conversation {
		b.WriteString(p.th.faint.Render("The conversation of this turn was compacted or cleared; only files can go back.") + "\n")
	}
	body := b.String() + "\n" + p.what.view(p.th, inner) + "\n\n" + p.th.faint.Render("enter choose · esc back")
	return frame(p.th, "Rewind", body, width)
}

// rewound is what a rewind did, back from the app.
type rewound struct {
	res app.RewindResult
	err error
}

// rewind runs a rewind outside Update.
func (m *Model) rewind(n int, what string) tea.Cmd {
	a := m.app
	return func() tea.Msg {
		res, err := a.Rewind(n, what)
		return rewound{res, err}
	}
}

// showRewound redraws the conversation after a rewind of it, and puts
// the turn's prompt back in the input box to edit and send again.
func (m *Model) showRewound(msg rewound) {
	if msg.err != nil {
		m.conv.notice("warning", "Cannot rewind: "+msg.err.Error())
		return
	}
	if msg.res.Conversation {
		m.conv = newConversation(m.th)
		m.scroll = 0
		m.loadHistory()
		if text := msg.res.Resend(); text != "" {
			m.in.SetValue(text)
		}
	}
	m.conv.notice("info", msg.res.Summary())
}
