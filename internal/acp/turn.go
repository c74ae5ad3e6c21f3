package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ponder-agent/ponder/internal/app"
)

// Prompt runs one turn with the editor's prompt, streaming its events as
// updates, and says how it ended. session/cancel cancels ctx.
func (s *server) Prompt(ctx context.Context, p sdk.PromptRequest) (sdk.PromptResponse, error) {
	ss, err := s.lookup(p.SessionId)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	text, err := promptText(p.Prompt)
	if err != nil {
		return sdk.PromptResponse{}, sdk.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	ss.turn.Lock()
	defer ss.turn.Unlock()
	ss.greet()
	if ctx.Err() != nil {
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	if ss.app.HasPendingPlan() {
		// A plan an earlier run left waiting is answered first; the
		// prompt follows once it no longer waits.
		if _, err := ss.app.AskPending(ctx); err != nil || ctx.Err() != nil {
			return ss.stop(ctx, app.TurnResult{StopReason: app.StopPlanPending}, err)
		}
		if ss.app.HasPendingPlan() {
			return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
		}
	}
	if res, ok, err := ss.command(ctx, text); ok {
		return ss.stop(ctx, res, err)
	}
	res, err := ss.app.Send(ctx, text)
	return ss.stop(ctx, res, err)
}

// greet tells the editor, once, the slash commands and what went wrong
// when the session started (settings ignored, say).
func (ss *session) greet() {
	ss.mu.Lock()
	done := ss.greeted
	ss.greeted = true
	notes := ss.startNotes
	ss.startNotes = nil
	ss.mu.Unlock()
	if done {
		return
	}
	ss.advertise()
	for _, n := range notes {
		ss.send(sdk.UpdateAgentThoughtText("ponder: "+n), nil)
	}
}

// stop is the answer to a prompt whose turn ended with res and err.
func (ss *session) stop(ctx context.Context, res app.TurnResult, err error) (sdk.PromptResponse, error) {
	if ctx.Err() != nil || res.StopReason == app.StopInterrupted {
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	if err != nil {
		return sdk.PromptResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	if res.StopReason == app.StopMaxTurns {
		return sdk.PromptResponse{StopReason: sdk.StopReasonMaxTurnRequests}, nil
	}
	return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
}

// Cancel stops the session's turn. The connection has cancelled the
// prompt's context already; a turn a load started is cancelled here.
// Questions the turn asked close with it, and their permission requests
// are withdrawn.
func (s *server) Cancel(_ context.Context, p sdk.CancelNotification) error {
	s.mu.Lock()
	ss := s.sessions[string(p.SessionId)]
	s.mu.Unlock()
	if ss == nil {
		return nil
	}
	ss.mu.Lock()
	cancel := ss.background
	ss.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	return nil
}
