package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/agent"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/session"
	"github.com/ponder-agent/ponder/internal/team"
)

// TeammateView is what a lead's front end shows of one teammate: its
// conversation so far, its mode, and, for a teammate running in the
// lead's process, its events as they happen.
type TeammateView struct {
	Name      string
	SessionID string
	// History is the teammate's conversation when the view was opened.
	History []event.Message
	// Mode is its permission mode then.
	Mode string
	// Events are its events from then on, for a teammate running in this
	// process; nil for one that runs as a process of its own (or has
	// stopped): follow it by reading its transcript again
	// (TeammateTranscript).
	Events <-chan event.Event
	stop   func()
}

// Live says the view follows the teammate's events as they happen.
func (v *TeammateView) Live() bool { return v.Events != nil }

// Close ends the view; its Events channel is closed.
func (v *TeammateView) Close() {
	if v.stop != nil {
		v.stop()
	}
}

// errNoLead is returned by the teammate views of a session that leads no
// team.
var errNoLead = errors.New("this session leads no team")

// ViewTeammate opens a view of teammate name. A teammate running in this
// process is followed live; any other is read from its transcript, which
// may mean reading a file: call it away from a UI's event loop.
func (a *App) ViewTeammate(name string) (*TeammateView, error) {
	l := a.lead
	if l == nil {
		return nil, errNoLead
	}
	l.mu.Lock()
	run := l.mates[name]
	l.mu.Unlock()
	if run != nil {
		// Subscribed before the history is taken, so that nothing falls
		// between them.
		events, stop := run.app.Subscribe(1024)
		return &TeammateView{Name: name, SessionID: run.app.ID(), History: run.app.History(), Mode: run.app.Mode(),
			Events: events, stop: stop}, nil
	}
	id, hist, mode, err := a.teammateTranscript(name)
	if err != nil {
		return nil, err
	}
	return &TeammateView{Name: name, SessionID: id, History: hist, Mode: mode}, nil
}

// TeammateTranscript reads the conversation and mode of teammate name
// from its transcript, as far as it has been written: the view of a
// teammate process, read again as it grows. It reads files: call it away
// from a UI's event loop.
func (a *App) TeammateTranscript(name string) (hist []event.Message, mode string, err error) {
	if a.lead == nil {
		return nil, "", errNoLead
	}
	_, hist, mode, err = a.teammateTranscript(name)
	return hist, mode, err
}

// teammateTranscript finds the session of teammate name (its record in
// the config directory, which a teammate process the lead started
// shares) and reads it.
func (a *App) teammateTranscript(name string) (id string, hist []event.Message, mode string, err error) {
	l := a.lead
	l.mu.Lock()
	st, known := l.states[name]
	l.mu.Unlock()
	if !known {
		return "", nil, "", fmt.Errorf("%s is no teammate of this session", name)
	}
	id = st.SessionID
	if id == "" {
		rec, found, err := team.LoadRecord(a.cfg.ConfigDir, l.m.team, name)
		if err != nil {
			return "", nil, "", err
		}
		if !found {
			return "", nil, "", fmt.Errorf("teammate %s keeps its session elsewhere (another config directory or machine); its transcript cannot be shown here", name)
		}
		id = rec.SessionID
	}
	if _, err := uuid.Parse(id); err != nil {
		return "", nil, "", fmt.Errorf("teammate %s names no session (%q)", name, id)
	}
	tr, err := session.Load(a.store.Path(id))
	if err != nil {
		return "", nil, "", fmt.Errorf("the transcript of teammate %s: %w", name, err)
	}
	for _, m := range tr.Conversation() {
		hist = append(hist, agent.EventMessage(m))
	}
	mode = event.ModeDefault
	if raw := tr.LastState(); raw != nil {
		var s planmode.State
		if json.Unmarshal(raw, &s) == nil && s.Mode != "" {
			mode = string(s.Mode)
		}
	}
	return id, hist, mode, nil
}

// MessageTeammate sends the user's text to teammate name's inbox, as the
// lead's SendMessage does: the teammate's model reads it at its next turn
// boundary, and an idle teammate works again.
func (a *App) MessageTeammate(ctx context.Context, name, text string) error {
	l := a.lead
	if l == nil {
		return errNoLead
	}
	l.mu.Lock()
	_, known := l.states[name]
	l.mu.Unlock()
	if !known {
		return fmt.Errorf("%s is no teammate of this session", name)
	}
	_, err := a.leadSend(ctx, name, text, "user")
	return err
}
