package acp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ponder-agent/ponder/internal/app"
)

// session is one ponder session an editor drives.
type session struct {
	srv *server
	app *app.App
	id  string

	// ready says the editor knows the session: before it, events are not
	// sent (session/new and session/load return the state they carry).
	ready atomic.Bool
	// turn lets one turn run at a time: a prompt, or the continuation of
	// a plan approval asked again after a load.
	turn sync.Mutex

	mu sync.Mutex
	// calls are the tool calls the editor was told of, by id.
	calls map[string]toolCall
	// asks cancel the permission requests of open questions, by id.
	asks map[string]context.CancelFunc
	// agents are the subagents' work so far, by agent id.
	agents map[string]*agentWork
	// background cancels the turn a load started, if one runs.
	background context.CancelFunc
	// greeted says the editor was told the slash commands and the
	// warnings of the session's start.
	greeted bool
	// startNotes are the warnings of the session's start, told with the
	// first prompt (the editor could not know the session before).
	startNotes []string
}

// NewSession starts a session in the editor's working directory.
func (s *server) NewSession(_ context.Context, p sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	ss, err := s.open(p.Cwd, "", len(p.McpServers))
	if err != nil {
		return sdk.NewSessionResponse{}, err
	}
	mode := ss.app.Mode()
	return sdk.NewSessionResponse{SessionId: sdk.SessionId(ss.id), Modes: s.modeState(mode), ConfigOptions: s.configOptions(mode)}, nil
}

// LoadSession resumes an earlier session: the conversation is replayed
// as updates before the answer, and a plan approval it left waiting is
// asked again.
func (s *server) LoadSession(_ context.Context, p sdk.LoadSessionRequest) (sdk.LoadSessionResponse, error) {
	if p.SessionId == "" {
		return sdk.LoadSessionResponse{}, sdk.NewInvalidParams(map[string]any{"error": "session/load needs a sessionId"})
	}
	s.mu.Lock()
	ss, open := s.sessions[string(p.SessionId)]
	s.mu.Unlock()
	if !open {
		var err error
		if ss, err = s.open(p.Cwd, string(p.SessionId), len(p.McpServers)); err != nil {
			return sdk.LoadSessionResponse{}, err
		}
	}
	ss.replay()
	ss.ready.Store(true)
	ss.greet()
	// The mode the session was loaded in, read before a pending plan is
	// asked again: the editor may answer that question before this
	// response is written, and the answer's mode arrives as an update.
	mode := ss.app.Mode()
	if ss.app.HasPendingPlan() {
		ctx, cancel := context.WithCancel(context.Background())
		ss.mu.Lock()
		ss.background = cancel
		ss.mu.Unlock()
		go func() {
			defer cancel()
			ss.turn.Lock()
			defer ss.turn.Unlock()
			if _, err := ss.app.AskPending(ctx); err != nil {
				s.logf("session %s: the plan left waiting: %v", ss.id, err)
			}
		}()
	}
	return sdk.LoadSessionResponse{Modes: s.modeState(mode), ConfigOptions: s.configOptions(mode)}, nil
}

// open builds and starts a session in cwd, a new one or (with resume)
// an earlier one, and registers it. A new session is ready at once; a
// loaded one once its conversation is replayed.
func (s *server) open(cwd, resume string, mcpServers int) (*session, error) {
	if !filepath.IsAbs(cwd) {
		return nil, sdk.NewInvalidParams(map[string]any{"error": fmt.Sprintf("cwd %q must be an absolute path", cwd)})
	}
	if mcpServers > 0 {
		s.logf("the editor offered %d MCP server(s); this build of ponder does not connect to MCP servers, so they are not used", mcpServers)
	}
	ss := &session{srv: s, calls: map[string]toolCall{}, asks: map[string]context.CancelFunc{}, agents: map[string]*agentWork{}}
	opts := s.opts.App
	opts.Dir = cwd
	opts.Interactive = true
	opts.Resume = resume
	opts.Continue, opts.Fork, opts.SessionID = false, false, ""
	if resume != "" {
		opts.Mode = "" // a loaded session keeps its mode
	}
	opts.Sink = ss.onEvent
	if ef := newEditorFiles(ss, s.clientCaps().Fs); ef != nil {
		opts.Editor = ef
	}
	a, err := app.New(opts)
	if err != nil {
		return nil, requestError(err)
	}
	ss.app, ss.id = a, a.ID()
	if err := a.Start(); err != nil {
		_ = a.Close()
		return nil, requestError(err)
	}
	s.mu.Lock()
	s.sessions[ss.id] = ss
	s.mu.Unlock()
	if resume == "" {
		ss.ready.Store(true)
	}
	return ss, nil
}

// requestError turns a session's error into the protocol's: problems
// with what was asked are invalid parameters, the rest internal errors;
// both carry ponder's message.
func requestError(err error) error {
	var ue *app.UsageError
	if errors.As(err, &ue) {
		return sdk.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	return sdk.NewInternalError(map[string]any{"error": err.Error()})
}

// CloseSession ends a session: its turn is cancelled and its transcript
// closed.
func (s *server) CloseSession(_ context.Context, p sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	s.mu.Lock()
	ss := s.sessions[string(p.SessionId)]
	delete(s.sessions, string(p.SessionId))
	s.mu.Unlock()
	if ss == nil {
		return sdk.CloseSessionResponse{}, sdk.NewInvalidParams(map[string]any{"error": fmt.Sprintf("no session %q is open", p.SessionId)})
	}
	ss.close()
	return sdk.CloseSessionResponse{}, nil
}

// ResumeSession is not offered (no sessionCapabilities.resume): use
// session/load.
func (s *server) ResumeSession(context.Context, sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	return sdk.ResumeSessionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionResume)
}

// close ends the session; questions still open are withdrawn, so nothing
// is approved by the editor's absence.
func (ss *session) close() {
	ss.mu.Lock()
	cancel := ss.background
	ss.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	ss.app.AnswererGone()
	if err := ss.app.Close(); err != nil {
		ss.srv.logf("session %s: closing: %v", ss.id, err)
	}
}

// send sends one update of the session to the editor; meta, when not
// nil, goes with it.
func (ss *session) send(u sdk.SessionUpdate, meta map[string]any) {
	n := sdk.SessionNotification{SessionId: sdk.SessionId(ss.id), Update: u, Meta: meta}
	if err := ss.srv.conn.SessionUpdate(context.Background(), n); err != nil {
		ss.srv.logf("session %s: sending an update: %v", ss.id, err)
	}
}

// modeChanged tells the editor the mode now in force, in both forms.
func (ss *session) modeChanged(mode string, meta map[string]any) {
	ss.send(sdk.SessionUpdate{CurrentModeUpdate: &sdk.SessionCurrentModeUpdate{CurrentModeId: sdk.SessionModeId(mode), SessionUpdate: "current_mode_update"}}, meta)
	ss.send(sdk.SessionUpdate{ConfigOptionUpdate: &sdk.SessionConfigOptionUpdate{ConfigOptions: ss.srv.configOptions(mode), SessionUpdate: "config_option_update"}}, nil)
}
