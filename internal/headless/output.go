package headless

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/google/uuid"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
)

// Output formats.
const (
	FormatText       = "text"
	FormatJSON       = "json"
	FormatStreamJSON = "stream-json"
)

// Result is the final object of json and stream-json output. Besides
// ponder's own fields it has those the Claude Agent SDK reads.
type Result struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	IsError   bool   `json:"is_error"`
	SessionID string `json:"session_id"`
	Result    string `json:"result"`
	Error     string `json:"error,omitempty"`
	PlanFile  string `json:"plan_file,omitempty"`
	Plan      string `json:"plan,omitempty"`
	// Permissions are what a pending plan asks to be granted.
	Permissions []event.PlanPermission `json:"permissions,omitempty"`
	Mode        string                 `json:"permission_mode"`
	NumTurns    int                    `json:"num_turns"`
	// Turn numbers the user turn the run began, for --rewind-to.
	Turn       int       `json:"turn,omitempty"`
	DurationMS int64     `json:"duration_ms"`
	Usage      wireUsage `json:"usage"`
	// DurationAPIMS is the time spent on model requests; ponder counts
	// the turn.
	DurationAPIMS int64 `json:"duration_api_ms"`
	// TotalCostUSD is the run's cost so far, from ponder's price table
	// and the settings' modelPrices (models without a price count 0).
	TotalCostUSD float64 `json:"total_cost_usd"`
	// StopReason is how the turn ended, or null.
	StopReason *string `json:"stop_reason"`
	// Errors lists what went wrong (empty on success).
	Errors []string `json:"errors"`
	// PermissionDenials are the calls refused during the turn.
	PermissionDenials []denial `json:"permission_denials"`
	// ModelUsage is the run's usage by model, in the SDK's shape.
	ModelUsage modelUsage `json:"modelUsage"`
	UUID       string     `json:"uuid"`
}

// modelUsage is the run's usage by model id; never null on the wire.
type modelUsage map[string]wireModelUsage

func (m modelUsage) MarshalJSON() ([]byte, error) {
	if m == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(map[string]wireModelUsage(m))
}

// wireModelUsage is one model's usage as the Claude Agent SDK reads it.
type wireModelUsage struct {
	InputTokens              int     `json:"inputTokens"`
	OutputTokens             int     `json:"outputTokens"`
	CacheReadInputTokens     int     `json:"cacheReadInputTokens"`
	CacheCreationInputTokens int     `json:"cacheCreationInputTokens"`
	WebSearchRequests        int     `json:"webSearchRequests"`
	CostUSD                  float64 `json:"costUSD"`
	ContextWindow            int     `json:"contextWindow"`
	// Requests and Priced are ponder's: how many requests went to the
	// model, and whether a price is known for it.
	Requests int  `json:"requests"`
	Priced   bool `json:"priced"`
}

// modelUsageOf converts the app's usage by model.
func modelUsageOf(u map[string]app.ModelUsage, window int) modelUsage {
	out := modelUsage{}
	for name, m := range u {
		out[name] = wireModelUsage{InputTokens: m.InputTokens, OutputTokens: m.OutputTokens, CacheReadInputTokens: m.CacheReadTokens,
			CacheCreationInputTokens: m.CacheWriteTokens, CostUSD: m.CostUSD, ContextWindow: window, Requests: m.Requests, Priced: m.Priced}
	}
	return out
}

// keySource is the apiKeySource the SDK reads.
func keySource(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// wireUsage counts tokens with every field present.
type wireUsage struct {
	InputTokens      int `json:"input_tokens"`
	OutputTokens     int `json:"output_tokens"`
	CacheReadTokens  int `json:"cache_read_input_tokens"`
	CacheWriteTokens int `json:"cache_creation_input_tokens"`
}

func usageOf(u event.Usage) wireUsage {
	return wireUsage{u.InputTokens, u.OutputTokens, u.CacheReadTokens, u.CacheWriteTokens}
}

// denial is a refused call, as a result lists it.
type denial struct {
	ToolName  string          `json:"tool_name"`
	ToolUseID string          `json:"tool_use_id"`
	ToolInput json.RawMessage `json:"tool_input"`
}

// writer prints events in the chosen format. Lines are written whole and
// in order, from whichever goroutine emits them.
type writer struct {
	mu        sync.Mutex
	out       io.Writer
	errOut    io.Writer
	format    string
	sessionID string
	version   string

	// sdk says the host speaks the Claude Agent SDK's dialect (it sent
	// initialize, or asked for stdio permission prompts).
	sdk atomic.Bool
	// partial prints stream_event lines while answers stream; replay
	// echoes the host's own user messages.
	partial bool
	replay  bool

	// streams are the answers streaming now, by agent.
	streams map[string]*stream
	// parents are the Task calls that launched each subagent.
	parents map[string]string
	// denials are the calls refused since the last result.
	denials []denial
}

// stream is an answer whose stream_event lines have begun.
type stream struct {
	id string
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
		fmt.Fprintln(w.errOut, "ponder: "+printable(msg))
		w.mu.Unlock()
	}
}

func newUUID() string { return uuid.NewString() }

func (w *writer) streamJSON(e event.Event) {
	switch e := e.(type) {
	case event.SessionStarted:
		w.sessionID = e.SessionID
		w.line(map[string]any{"type": "system", "subtype": "init", "session_id": e.SessionID, "model": e.Model,
			"permission_mode": e.Mode, "cwd": e.Cwd, "tools": e.Tools, "resumed": e.Resumed, "version": event.Version,
			"sandbox": e.Sandbox,
			// What the Claude Agent SDK reads.
			"permissionMode": e.Mode, "apiKeySource": keySource(e.APIKeySource), "claude_code_version": w.version, "mcp_servers": initMCPServers(e.MCPServers),
			"slash_commands": []string{"compact"}, "output_style": "default", "skills": []string{}, "plugins": []any{},
			"agents": []string{"general-purpose", "Explore", "Plan"}, "uuid": newUUID()})
	case event.TextDelta:
		if w.partial {
			w.delta(e)
		}
	case event.TurnFinished:
	case event.QuestionClosed:
		// Hosts know questions by their request_id.
		l := w.eventLine(e)
		l["request_id"] = e.ID
		w.line(l)
		if e.How != event.Answered && w.sdk.Load() {
			// The SDK aborts the callback still deciding (its signal).
			w.line(map[string]any{"type": "control_cancel_request", "request_id": e.ID})
		}
	case event.AgentStarted:
		w.setParent(e.AgentID, e.ParentToolID)
		w.line(w.eventLine(e))
	case event.AssistantMessage:
		w.assistant(e)
	case event.UserMessage:
		w.user(e)
	case event.QuestionAsked:
		if w.sdk.Load() {
			w.line(sdkControlRequest(e.Question))
		} else {
			w.line(controlRequest(e.Question))
		}
	case event.ToolRefused:
		w.mu.Lock()
		w.denials = append(w.denials, denial{ToolName: e.Tool, ToolUseID: e.ID, ToolInput: objectOr(e.Input)})
		w.mu.Unlock()
		w.line(w.eventLine(e))
		if w.sdk.Load() {
			l := map[string]any{"type": "system", "subtype": "permission_denied", "tool_name": e.Tool, "tool_use_id": e.ID,
				"decision_reason_type": reasonType(e.Rule), "decision_reason": e.Rule, "message": e.Reason,
				"uuid": newUUID(), "session_id": w.sessionID}
			if e.AgentID != "" {
				l["agent_id"] = e.AgentID
			}
			w.line(l)
		}
	case event.ModeChanged:
		w.line(w.eventLine(e))
		if w.sdk.Load() {
			w.line(map[string]any{"type": "system", "subtype": "status", "status": nil, "permissionMode": e.To,
				"uuid": newUUID(), "session_id": w.sessionID})
		}
	default:
		w.line(w.eventLine(e))
	}
}

// reasonType sorts a refusal's rule the way the SDK names decision
// reasons.
func reasonType(rule string) string {
	switch {
	case rule == "hook":
		return "hook"
	case rule == "user":
		return "permissionPromptTool"
	case rule == "mode" || rule == "plan mode" || rule == "read-only agent":
		return "mode"
	}
	return "rule"
}

// parent is the Task call that launched an agent, or nil for the main
// conversation.
func (w *writer) parent(agentID string) any {
	if agentID == "" {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if p, ok := w.parents[agentID]; ok {
		return p
	}
	return nil
}

func (w *writer) setParent(agentID, toolID string) {
	w.mu.Lock()
	if w.parents == nil {
		w.parents = map[string]string{}
	}
	w.parents[agentID] = toolID
	w.mu.Unlock()
}

// assistant prints a whole answer: ponder's fields and the shape of an
// Anthropic message, which the SDK reads.
func (w *writer) assistant(e event.AssistantMessage) {
	id := "msg_" + uuid.NewString()
	w.mu.Lock()
	s := w.streams[e.AgentID]
	delete(w.streams, e.AgentID)
	w.mu.Unlock()
	var stop any
	if e.StopReason != "" {
		stop = e.StopReason
	}
	if s != nil {
		id = s.id
		p := w.parent(e.AgentID)
		w.streamEvent(p, map[string]any{"type": "content_block_stop", "index": 0})
		w.streamEvent(p, map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
			"usage": map[string]any{"output_tokens": e.Usage.OutputTokens}})
		w.streamEvent(p, map[string]any{"type": "message_stop"})
	}
	msg := map[string]any{"id": id, "type": "message", "role": "assistant", "model": e.Model, "content": wireBlocks(e.Message.Content),
		"stop_reason": stop, "stop_sequence": nil, "usage": usageOf(e.Usage)}
	w.line(map[string]any{"type": "assistant", "message": msg, "agent_id": e.AgentID, "session_id": w.sessionID, "usage": e.Usage,
		"parent_tool_use_id": w.parent(e.AgentID), "uuid": newUUID()})
}

// user prints a user message. Hosts of the SDK's dialect get tool results
// only (and their own messages back with --replay-user-messages), without
// ponder's reminders to the model.
func (w *writer) user(e event.UserMessage) {
	content := e.Message.Content
	if w.sdk.Load() {
		content = nil
		results := false
		for _, b := range e.Message.Content {
			if b.Reminder != "" {
				continue
			}
			results = results || b.Type == event.BlockToolResult
			content = append(content, b)
		}
		if !results && !w.replay || len(content) == 0 {
			return
		}
	}
	msg := map[string]any{"role": e.Message.Role, "content": wireBlocks(content)}
	w.line(map[string]any{"type": "user", "message": msg, "agent_id": e.AgentID, "session_id": w.sessionID,
		"parent_tool_use_id": w.parent(e.AgentID), "uuid": newUUID()})
}

// delta prints a piece of streaming text as stream_event lines, opening
// the message and its text block first.
func (w *writer) delta(e event.TextDelta) {
	w.mu.Lock()
	if w.streams == nil {
		w.streams = map[string]*stream{}
	}
	s, open := w.streams[e.AgentID]
	if !open {
		s = &stream{id: "msg_" + uuid.NewString()}
		w.streams[e.AgentID] = s
	}
	w.mu.Unlock()
	p := w.parent(e.AgentID)
	if !open {
		w.streamEvent(p, map[string]any{"type": "message_start", "message": map[string]any{"id": s.id, "type": "message", "role": "assistant",
			"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": wireUsage{}}})
		w.streamEvent(p, map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
	}
	w.streamEvent(p, map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": e.Text}})
}

func (w *writer) streamEvent(parent any, ev map[string]any) {
	w.line(map[string]any{"type": "stream_event", "event": ev, "parent_tool_use_id": parent, "uuid": newUUID(), "session_id": w.sessionID})
}

// takeDenials returns the calls refused since the last call, and forgets
// them.
func (w *writer) takeDenials() []denial {
	w.mu.Lock()
	defer w.mu.Unlock()
	d := w.denials
	w.denials = nil
	if d == nil {
		d = []denial{}
	}
	return d
}

// wireBlocks gives blocks the shape of the Anthropic Messages API: a tool
// call always has an input object.
func wireBlocks(blocks []event.Block) []any {
	out := make([]any, 0, len(blocks))
	for _, b := range blocks {
		switch b.Type {
		case event.BlockToolUse:
			out = append(out, map[string]any{"type": b.Type, "id": b.ID, "name": b.Name, "input": objectOr(b.Input)})
		case event.BlockText:
			m := map[string]any{"type": b.Type, "text": b.Text}
			if b.Reminder != "" {
				m["reminder"] = b.Reminder
			}
			out = append(out, m)
		default:
			out = append(out, b)
		}
	}
	return out
}

// objectOr returns raw, or an empty object when raw is empty.
func objectOr(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage(`{}`)
	}
	return raw
}

// eventLine flattens an event into {"type":"event","event":KIND,...}.
// Hosts of the SDK's dialect know a closed set of message types, so there
// it is a system message of its own subtype, ponder_event, which they
// pass over like the other system messages they do not know.
func (w *writer) eventLine(e event.Event) map[string]any {
	out := map[string]any{}
	if data, err := json.Marshal(e); err == nil {
		_ = json.Unmarshal(data, &out)
	}
	// Every event about a tool names it in "tool"; tool_started and
	// tool_finished also keep "name", which hosts read before.
	switch e := e.(type) {
	case event.ToolStarted:
		out["tool"] = e.Name
	case event.ToolFinished:
		out["tool"] = e.Name
	}
	out["type"] = "event"
	out["event"] = e.Kind()
	out["session_id"] = w.sessionID
	if w.sdk.Load() {
		out["type"], out["subtype"], out["uuid"] = "system", "ponder_event", newUUID()
	}
	return out
}

// controlRequest is how a question reaches a host of ponder's own
// dialect.
func controlRequest(q event.Question) map[string]any {
	req := map[string]any{"subtype": string(q.Kind)}
	switch q.Kind {
	case event.AskToolUse:
		// "tool" as in every event about a tool; "tool_name" as before.
		req["tool"], req["tool_name"] = q.Tool, q.Tool
		req["input"] = q.Input
		req["reason"] = q.Reason
		if q.Suggest != "" {
			req["suggested_rule"] = q.Suggest
		}
	case event.AskPlanExit:
		req["plan"] = q.Plan
		req["plan_file"] = q.PlanFile
		req["options"] = q.Options
		if q.TeamRequestID != "" {
			req["team_request_id"] = q.TeamRequestID
		}
	case event.AskUser:
		req["questions"] = q.Questions
	}
	addApprovalContent(req, q)
	if q.AgentID != "" {
		req["agent_id"] = q.AgentID
	}
	if q.ToolUseID != "" {
		req["tool_use_id"] = q.ToolUseID
	}
	return map[string]any{"type": "control_request", "request_id": q.ID, "request": req}
}

// initMCPServers is the init message's list of MCP servers: name and
// status (and why, for one that failed), as hosts of other agents know it.
func initMCPServers(servers []event.MCPServer) []map[string]string {
	out := make([]map[string]string, 0, len(servers))
	for _, s := range servers {
		m := map[string]string{"name": s.Name, "status": s.Status}
		if s.Error != "" {
			m["error"] = s.Error
		}
		out = append(out, m)
	}
	return out
}
