package headless

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/ponder-agent/ponder/event"
)

// Output formats.
const (
	FormatText       = "text"
	FormatJSON       = "json"
	FormatStreamJSON = "stream-json"
)

// Result is the final object of json and stream-json output.
type Result struct {
	Type       string      `json:"type"`
	Subtype    string      `json:"subtype"`
	IsError    bool        `json:"is_error"`
	SessionID  string      `json:"session_id"`
	Result     string      `json:"result"`
	Error      string      `json:"error,omitempty"`
	PlanFile   string      `json:"plan_file,omitempty"`
	Plan       string      `json:"plan,omitempty"`
	Mode       string      `json:"permission_mode"`
	NumTurns   int         `json:"num_turns"`
	DurationMS int64       `json:"duration_ms"`
	Usage      event.Usage `json:"usage"`
}

// writer prints events in the chosen format. Lines are written whole and
// in order, from whichever goroutine emits them.
type writer struct {
	mu        sync.Mutex
	out       io.Writer
	errOut    io.Writer
	format    string
	sessionID string
}

func (w *writer) line(v any) {
	data, err := json.Marshal(v)
	if err != nil {
		data, _ = json.Marshal(map[string]string{"type": "error", "error": err.Error()})
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.out.Write(append(data, '\n'))
}

// emit is the app's event sink.
func (w *writer) emit(e event.Event) {
	switch w.format {
	case FormatStreamJSON:
		w.streamJSON(e)
	default:
		w.plain(e)
	}
}

// plain reports what a person running ponder -p should see on standard
// error: refusals, warnings and retries. The answer goes to standard
// output at the end.
func (w *writer) plain(e event.Event) {
	var msg string
	switch e := e.(type) {
	case event.ToolRefused:
		msg = fmt.Sprintf("refused %s: %s", e.Tool, e.Reason)
	case event.Notice:
		if e.Level == "warning" {
			msg = "warning: " + e.Text
		}
	case event.Retrying:
		msg = fmt.Sprintf("model request failed (%s); retrying (attempt %d) in %s", e.Error, e.Attempt, e.Wait.Round(1e6))
	}
	if msg != "" {
		w.mu.Lock()
		fmt.Fprintln(w.errOut, "ponder: "+msg)
		w.mu.Unlock()
	}
}

func (w *writer) streamJSON(e event.Event) {
	switch e := e.(type) {
	case event.SessionStarted:
		w.sessionID = e.SessionID
		w.line(map[string]any{"type": "system", "subtype": "init", "session_id": e.SessionID, "model": e.Model,
			"permission_mode": e.Mode, "cwd": e.Cwd, "tools": e.Tools, "resumed": e.Resumed, "version": event.Version,
			"sandbox": e.Sandbox})
	case event.TextDelta, event.TurnFinished:
	case event.QuestionClosed:
		// Hosts know questions by their request_id.
		l := eventLine(e, w.sessionID)
		l["request_id"] = e.ID
		w.line(l)
	case event.AssistantMessage:
		w.line(map[string]any{"type": "assistant", "message": e.Message, "agent_id": e.AgentID, "session_id": w.sessionID, "usage": e.Usage})
	case event.UserMessage:
		w.line(map[string]any{"type": "user", "message": e.Message, "agent_id": e.AgentID, "session_id": w.sessionID})
	case event.QuestionAsked:
		w.line(controlRequest(e.Question))
	default:
		w.line(eventLine(e, w.sessionID))
	}
}

// eventLine flattens an event into {"type":"event","event":KIND,...}.
func eventLine(e event.Event, sessionID string) map[string]any {
	out := map[string]any{}
	if data, err := json.Marshal(e); err == nil {
		_ = json.Unmarshal(data, &out)
	}
	out["type"] = "event"
	out["event"] = e.Kind()
	out["session_id"] = sessionID
	return out
}

// controlRequest is how a question reaches the host on stream-json.
func controlRequest(q event.Question) map[string]any {
	req := map[string]any{"subtype": string(q.Kind)}
	switch q.Kind {
	case event.AskToolUse:
		req["tool_name"] = q.Tool
		req["input"] = q.Input
		req["reason"] = q.Reason
		if q.Suggest != "" {
			req["suggested_rule"] = q.Suggest
		}
	case event.AskPlanExit:
		req["plan"] = q.Plan
		req["plan_file"] = q.PlanFile
		req["options"] = q.Options
	case event.AskUser:
		req["questions"] = q.Questions
	}
	if q.AgentID != "" {
		req["agent_id"] = q.AgentID
	}
	return map[string]any{"type": "control_request", "request_id": q.ID, "request": req}
}
