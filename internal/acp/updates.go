package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ponder-agent/ponder/event"
)

// onEvent receives every event of the session, in order, as it happens
// (app.Options.Sink), and tells the editor what it should know. Questions
// become permission requests, answered on their own goroutines so that
// the session never waits on the editor here.
func (ss *session) onEvent(e event.Event) {
	if q, ok := e.(event.QuestionAsked); ok {
		ctx, cancel := context.WithCancel(context.Background())
		ss.mu.Lock()
		ss.asks[q.Question.ID] = cancel
		ss.mu.Unlock()
		go ss.ask(ctx, q.Question)
		return
	}
	if c, ok := e.(event.QuestionClosed); ok {
		ss.mu.Lock()
		cancel := ss.asks[c.ID]
		delete(ss.asks, c.ID)
		ss.mu.Unlock()
		if cancel != nil {
			cancel()
		}
		return
	}
	if !ss.ready.Load() {
		// Before the editor knows the session: what it must know comes
		// with the answer to session/new or session/load.
		if n, ok := e.(event.Notice); ok {
			ss.srv.logf("%s: %s", n.Level, n.Text)
			if n.Level == "warning" {
				ss.mu.Lock()
				ss.startNotes = append(ss.startNotes, n.Text)
				ss.mu.Unlock()
			}
		}
		return
	}
	ss.translate(e)
}

// translate sends the updates an event stands for. Only the main
// conversation's text and calls are shown; a subagent's work shows as its
// Task call, and its questions as permission requests.
func (ss *session) translate(e event.Event) {
	switch e := e.(type) {
	case event.TextDelta:
		if e.AgentID == "" && e.Text != "" {
			ss.send(sdk.UpdateAgentMessageText(e.Text), nil)
		}
	case event.AssistantMessage:
		if e.AgentID != "" {
			return
		}
		for _, b := range e.Message.Content {
			if b.Type == event.BlockToolUse {
				ss.announce(describe(ss.app.Dir(), b.ID, b.Name, b.Input), sdk.ToolCallStatusPending)
			}
		}
	case event.AgentStarted:
		ss.mu.Lock()
		ss.agents[e.AgentID] = &agentWork{parent: e.ParentToolID}
		ss.mu.Unlock()
	case event.AgentFinished:
		ss.mu.Lock()
		delete(ss.agents, e.AgentID)
		ss.mu.Unlock()
	case event.ToolStarted:
		if e.AgentID != "" {
			ss.agentStep(e)
			return
		}
		if ss.known(e.ID) {
			ss.send(sdk.UpdateToolCall(sdk.ToolCallId(e.ID), sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress)), nil)
		}
	case event.ToolFinished:
		ss.finished(e)
	case event.ToolRefused:
		if ss.known(e.ID) {
			ss.send(sdk.UpdateToolCall(sdk.ToolCallId(e.ID), sdk.WithUpdateStatus(sdk.ToolCallStatusFailed),
				sdk.WithUpdateContent(textContent(fmt.Sprintf("Refused (%s): %s", e.Rule, e.Reason)))), eventMeta(e))
		}
	case event.ModeChanged:
		ss.modeChanged(e.To, eventMeta(e))
	case event.PlanModeEntered, event.PlanExitRequested, event.PlanApproved, event.PlanRejected, event.PlanImplement, event.PlanPhase, event.PlanReport:
		// Each shows in the editor on its own carrier too (the mode, the
		// approval request, the ExitPlanMode call); this is the event
		// itself, for clients that read ponder's metadata.
		ss.send(sdk.SessionUpdate{SessionInfoUpdate: &sdk.SessionSessionInfoUpdate{SessionUpdate: "session_info_update"}}, eventMeta(e))
		if pa, ok := e.(event.PlanApproved); ok && len(pa.Steps) > 0 {
			// The plan's steps are the todo list from now on.
			ss.send(todoPlan(pa.Steps), nil)
		}
		if pr, ok := e.(event.PlanReport); ok {
			ss.send(sdk.UpdateAgentMessageText("\n\nPlan check: "+pr.Summary+"\n"), eventMeta(e))
		}
		if im, ok := e.(event.PlanImplement); ok {
			ss.send(sdk.UpdateAgentMessageText(fmt.Sprintf("\n\nStarting a fresh conversation from the approved plan (%s).\n\n", im.PlanFile)), eventMeta(e))
		}
	case event.Retrying:
		if e.AgentID == "" {
			ss.send(sdk.UpdateAgentThoughtText(fmt.Sprintf("The model request failed (%s); trying again (attempt %d).", e.Error, e.Attempt)), eventMeta(e))
		}
	case event.Notice:
		ss.srv.logf("%s: %s", e.Level, e.Text)
		if e.Level == "warning" {
			ss.send(sdk.UpdateAgentThoughtText("ponder: "+e.Text), eventMeta(e))
		}
	}
}

// agentWork is what a subagent did so far, shown on the Task call that
// launched it.
type agentWork struct {
	parent string
	steps  []string
}

// maxSteps bounds the steps of a subagent a Task call shows.
const maxSteps = 20

// agentStep adds a subagent's call to the Task call that launched it.
func (ss *session) agentStep(e event.ToolStarted) {
	ss.mu.Lock()
	w := ss.agents[e.AgentID]
	var text string
	if w != nil {
		w.steps = append(w.steps, describe(ss.app.Dir(), e.ID, e.Name, e.Input).title)
		shown := w.steps
		if len(shown) > maxSteps {
			shown = append([]string{fmt.Sprintf("… %d earlier steps", len(shown)-maxSteps)}, shown[len(shown)-maxSteps:]...)
		}
		text = "- " + strings.Join(shown, "\n- ")
	}
	_, known := ss.calls[parentOf(w)]
	ss.mu.Unlock()
	if w != nil && known {
		ss.send(sdk.UpdateToolCall(sdk.ToolCallId(w.parent), sdk.WithUpdateContent(textContent(text))), nil)
	}
}

// parentOf is the Task call of a subagent's work, or "".
func parentOf(w *agentWork) string {
	if w == nil {
		return ""
	}
	return w.parent
}

// eventMeta is an event of ponder's as the _meta of the update that
// carries it: {"ponder": {"event": kind, ...fields}}.
func eventMeta(e event.Event) map[string]any {
	fields := map[string]any{}
	if data, err := json.Marshal(e); err == nil {
		_ = json.Unmarshal(data, &fields)
	}
	fields["event"] = e.Kind()
	return map[string]any{"ponder": fields}
}

// announce tells the editor of a call and remembers it.
func (ss *session) announce(c toolCall, status sdk.ToolCallStatus) {
	ss.mu.Lock()
	ss.calls[c.id] = c
	ss.mu.Unlock()
	ss.send(c.start(status), nil)
}

// known says the editor was told of the call.
func (ss *session) known(id string) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	_, ok := ss.calls[id]
	return ok
}

// call returns what the editor was told of a call.
func (ss *session) call(id string) (toolCall, bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	c, ok := ss.calls[id]
	return c, ok
}

// finished reports a call's result: its status, and its output (an
// edit keeps showing its diff). A TodoWrite of the main conversation is
// also the session's plan, in the protocol's sense.
func (ss *session) finished(e event.ToolFinished) {
	if e.AgentID == "" && e.Name == "TodoWrite" && !e.IsError {
		ss.send(todoPlan(e.Todos), nil)
	}
	c, ok := ss.call(e.ID)
	if !ok {
		return
	}
	status := sdk.ToolCallStatusCompleted
	if e.IsError {
		status = sdk.ToolCallStatusFailed
	}
	opts := []sdk.ToolCallUpdateOpt{sdk.WithUpdateStatus(status), sdk.WithUpdateRawOutput(map[string]any{"content": e.Content, "is_error": e.IsError})}
	if len(c.diff) == 0 || e.IsError {
		opts = append(opts, sdk.WithUpdateContent(append(append([]sdk.ToolCallContent(nil), c.diffIf(!e.IsError)...), textContent(e.Content)...)))
	}
	ss.send(sdk.UpdateToolCall(sdk.ToolCallId(e.ID), opts...), nil)
}

// diffIf is the call's diff when ok.
func (c toolCall) diffIf(ok bool) []sdk.ToolCallContent {
	if ok {
		return c.diff
	}
	return nil
}

// todoPlan is a todo list as a plan update.
func todoPlan(todos []event.TodoItem) sdk.SessionUpdate {
	entries := make([]sdk.PlanEntry, 0, len(todos))
	for _, t := range todos {
		st := sdk.PlanEntryStatusPending
		switch t.Status {
		case event.TodoInProgress:
			st = sdk.PlanEntryStatusInProgress
		case event.TodoCompleted:
			st = sdk.PlanEntryStatusCompleted
		}
		entries = append(entries, sdk.PlanEntry{Content: t.Content, Priority: sdk.PlanEntryPriorityMedium, Status: st})
	}
	return sdk.UpdatePlan(entries...)
}
