// Package event is the typed, versioned vocabulary a ponder session speaks
// to its front ends: the terminal UI, headless stream-json output, the Go
// SDK and editor integrations all receive these events and answer the
// questions they carry. It depends on the standard library only.
//
// Every event has a wire name (Kind), used as the "event" field of
// stream-json lines.
package event

import (
	"encoding/json"
	"time"
)

// Version is the version of this vocabulary. It grows when events gain
// fields and changes incompatibly never within one major version.
const Version = 2

// Event is anything a session reports.
type Event interface {
	// Kind is the event's wire name.
	Kind() string
}

// The types of Block.
const (
	BlockText       = "text"
	BlockToolUse    = "tool_use"
	BlockToolResult = "tool_result"
	BlockImage      = "image"
)

// Block is one piece of a message, shaped like the Anthropic Messages API
// so that stream-json consumers meet a familiar format. Type is one of
// the Block* constants.
type Block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   string          `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
	// Reminder names the reminder a text block carries (ponder's note to
	// the model, not the user's words), such as "plan_mode".
	Reminder string `json:"reminder,omitempty"`
	// Attachment names what the user attached (an @-mentioned path) on
	// the blocks that carry it: not typed text.
	Attachment string `json:"attachment,omitempty"`
	// MediaType and Data are an image block's media type ("image/png")
	// and its bytes in base64.
	MediaType string `json:"media_type,omitempty"`
	Data      string `json:"data,omitempty"`
}

// Message is a whole message of the conversation.
type Message struct {
	Role    string  `json:"role"`
	Content []Block `json:"content"`
}

// Usage counts tokens.
type Usage struct {
	InputTokens      int `json:"input_tokens"`
	OutputTokens     int `json:"output_tokens"`
	CacheReadTokens  int `json:"cache_read_input_tokens,omitempty"`
	CacheWriteTokens int `json:"cache_creation_input_tokens,omitempty"`
}

// SessionStarted opens every session's event stream.
type SessionStarted struct {
	SessionID string   `json:"session_id"`
	Model     string   `json:"model"`
	Mode      string   `json:"permission_mode"`
	Cwd       string   `json:"cwd"`
	Tools     []string `json:"tools"`
	Resumed   bool     `json:"resumed,omitempty"`
	// Sandbox names the OS sandbox that confines commands run without a
	// yes: "landlock", "bwrap", "seatbelt" or SandboxNone.
	Sandbox string `json:"sandbox"`
	// MCPServers are the session's MCP servers and how their start went.
	MCPServers []MCPServer `json:"mcp_servers,omitempty"`
	// APIKeySource names where the provider's key came from: the
	// environment variable that held it, or "none".
	APIKeySource string `json:"api_key_source,omitempty"`
}

// SandboxNone is the sandbox named when commands cannot be confined.
const SandboxNone = "none"

// TextDelta is a piece of assistant text as it streams. Deltas may be
// dropped under load; the AssistantMessage that follows is complete.
type TextDelta struct {
	AgentID string `json:"agent_id,omitempty"`
	Text    string `json:"text"`
}

// Retrying says the model request failed and is tried again: text streamed
// since the last AssistantMessage is void.
type Retrying struct {
	AgentID string        `json:"agent_id,omitempty"`
	Attempt int           `json:"attempt"`
	Wait    time.Duration `json:"wait_ns"`
	Error   string        `json:"error"`
}

// AssistantMessage is a complete answer of the model.
type AssistantMessage struct {
	AgentID string  `json:"agent_id,omitempty"`
	Message Message `json:"message"`
	Model   string  `json:"model,omitempty"`
	Usage   Usage   `json:"usage"`
	// StopReason is why the model stopped: "end_turn", "tool_use",
	// "max_tokens"…, as the provider said.
	StopReason string `json:"stop_reason,omitempty"`
}

// UserMessage is a message sent to the model on the user's side: typed
// input, or the results of tool calls.
type UserMessage struct {
	AgentID string  `json:"agent_id,omitempty"`
	Message Message `json:"message"`
}

// ToolStarted says a tool call was approved and is running.
type ToolStarted struct {
	AgentID string          `json:"agent_id,omitempty"`
	ID      string          `json:"id"`
	Name    string          `json:"name"`
	Input   json.RawMessage `json:"input"`
}

// ToolFinished carries the result of a tool call that was not refused:
// one that ran, failed to start (its input was invalid), or never ran
// because the turn ended first. Every call ends in exactly one
// ToolFinished or one ToolRefused.
type ToolFinished struct {
	AgentID  string        `json:"agent_id,omitempty"`
	ID       string        `json:"id"`
	Name     string        `json:"name"`
	Content  string        `json:"content"`
	Summary  string        `json:"summary,omitempty"`
	IsError  bool          `json:"is_error,omitempty"`
	Duration time.Duration `json:"duration_ns"`
	// Todos is the list a TodoWrite call saved.
	Todos []TodoItem `json:"todos,omitempty"`
	// Answers are the user's answers to an AskUserQuestion call, by
	// question.
	Answers map[string]string `json:"answers,omitempty"`
	// Diff is, for a call that changed a file (Write, Edit), the change
	// it made as a unified diff ("" when it cannot be shown: a binary or
	// very large file).
	Diff string `json:"diff,omitempty"`
}

// TodoStatus is where a todo item stands.
type TodoStatus string

// The statuses a todo item moves through.
const (
	TodoPending    TodoStatus = "pending"
	TodoInProgress TodoStatus = "in_progress"
	TodoCompleted  TodoStatus = "completed"
)

// TodoItem is one entry of an agent's todo list.
type TodoItem struct {
	Content    string     `json:"content"`
	Status     TodoStatus `json:"status"`
	ActiveForm string     `json:"activeForm"`
}

// ToolRefused says a tool call was refused and nothing ran. It is the
// only event of a refused call.
type ToolRefused struct {
	AgentID  string          `json:"agent_id,omitempty"`
	ID       string          `json:"id"`
	Tool     string          `json:"tool"`
	Input    json.RawMessage `json:"input,omitempty"`
	Rule     string          `json:"rule"`
	Reason   string          `json:"reason"`
	Mode     string          `json:"permission_mode"`
	PlanFile string          `json:"plan_file,omitempty"`
}

// TurnFinished says the model is done with the latest input.
type TurnFinished struct {
	StopReason string `json:"stop_reason"`
	Text       string `json:"text"`
	Requests   int    `json:"num_turns"`
	Usage      Usage  `json:"usage"`
	Error      string `json:"error,omitempty"`
}

// Notice is something the user should know that is not part of the
// conversation: a warning, a recovered plan, a retry.
type Notice struct {
	Level string `json:"level"` // "info" or "warning"
	Text  string `json:"text"`
}

// Kind implementations.
func (SessionStarted) Kind() string   { return "session_started" }
func (TextDelta) Kind() string        { return "text_delta" }
func (Retrying) Kind() string         { return "retrying" }
func (AssistantMessage) Kind() string { return "assistant" }
func (UserMessage) Kind() string      { return "user" }
func (ToolStarted) Kind() string      { return "tool_started" }
func (ToolFinished) Kind() string     { return "tool_finished" }
func (ToolRefused) Kind() string      { return "tool_refused" }
func (TurnFinished) Kind() string     { return "turn_finished" }
func (Notice) Kind() string           { return "notice" }
