// Package llm holds the provider-neutral shape of a conversation with a
// model: messages made of content blocks, tool specifications, requests,
// and the stream of events a provider yields while it answers.
//
// Adapters for the concrete wire APIs live in the anthropic and openai
// subpackages; the fakemodel subpackage serves both APIs for tests.
package llm

import (
	"encoding/json"

	"github.com/ponder-agent/ponder/event"
)

// Role says who wrote a message.
type Role string

// The two roles of a conversation. Tool results travel in user messages.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// BlockType names the kind of a content block.
type BlockType string

// The content block kinds ponder exchanges with models.
const (
	BlockText       BlockType = event.BlockText
	BlockToolUse    BlockType = event.BlockToolUse
	BlockToolResult BlockType = event.BlockToolResult
	// BlockImage is an image the user attached, sent inline.
	BlockImage BlockType = event.BlockImage
)

// Block is one piece of a message: text, a tool call made by the model, or
// the result of a tool call returned to it.
type Block struct {
	Type BlockType `json:"type"`

	// Text is the text of a text block.
	Text string `json:"text,omitempty"`
	// Reminder marks a text block that ponder attached to a user message
	// (a system reminder such as "plan_mode"); it names the reminder kind.
	// Such blocks are sent to the model like any text but are never shown
	// as something the user typed.
	Reminder string `json:"reminder,omitempty"`
	// Attachment names what the user attached (an @-mentioned path) on
	// the blocks that carry it; front ends show such blocks as an
	// attachment, not as typed text.
	Attachment string `json:"attachment,omitempty"`

	// ID, Name and Input describe a tool_use block. Input is always valid
	// JSON; when the model produced malformed input, Input is {} and
	// InvalidInput holds what the model sent, so the tool call can fail
	// with a message that says so.
	ID           string          `json:"id,omitempty"`
	Name         string          `json:"name,omitempty"`
	Input        json.RawMessage `json:"input,omitempty"`
	InvalidInput string          `json:"invalid_input,omitempty"`

	// ToolUseID, Content and IsError describe a tool_result block.
	ToolUseID string `json:"tool_use_id,omitempty"`
	Content   string `json:"content,omitempty"`
	IsError   bool   `json:"is_error,omitempty"`

	// MediaType and Data describe an image block: "image/png",
	// "image/jpeg", "image/gif" or "image/webp", and the bytes in
	// standard base64.
	MediaType string `json:"media_type,omitempty"`
	Data      string `json:"data,omitempty"`
}

// ImageBlock returns an image block for base64 data of a media type.
func ImageBlock(mediaType, data string) Block {
	return Block{Type: BlockImage, MediaType: mediaType, Data: data}
}

// ToolUseBlock returns a tool_use block for input as the model produced
// it, keeping malformed input aside (see Block.InvalidInput).
func ToolUseBlock(id, name, input string) Block {
	b := Block{Type: BlockToolUse, ID: id, Name: name}
	raw := []byte(input)
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	if json.Valid(raw) {
		b.Input = json.RawMessage(raw)
	} else {
		b.Input = json.RawMessage("{}")
		b.InvalidInput = input
	}
	return b
}

// TextBlock returns a text block.
func TextBlock(s string) Block { return Block{Type: BlockText, Text: s} }

// Message is one turn of the conversation.
type Message struct {
	Role    Role    `json:"role"`
	Content []Block `json:"content"`
}

// UserText returns a user message made of one text block.
func UserText(s string) Message {
	return Message{Role: RoleUser, Content: []Block{TextBlock(s)}}
}

// Text returns the concatenated text blocks of the message, leaving out
// attached reminders.
func (m Message) Text() string {
	var out []byte
	for _, b := range m.Content {
		if b.Type == BlockText && b.Reminder == "" {
			out = append(out, b.Text...)
		}
	}
	return string(out)
}

// ToolUses returns the tool_use blocks of the message in order.
func (m Message) ToolUses() []Block {
	var out []Block
	for _, b := range m.Content {
		if b.Type == BlockToolUse {
			out = append(out, b)
		}
	}
	return out
}

// IsToolResult reports whether the message carries tool results (and is
// therefore not a turn typed by a human).
func (m Message) IsToolResult() bool {
	for _, b := range m.Content {
		if b.Type == BlockToolResult {
			return true
		}
	}
	return false
}

// ToolSpec describes a tool offered to the model.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"input_schema"`
}

// Request is one call to a model.
type Request struct {
	Model     string
	System    string
	Messages  []Message
	Tools     []ToolSpec
	MaxTokens int
	// Effort asks the model to think harder or less (see Effort); the
	// adapters send it only to models that support it.
	Effort Effort
}

// Usage counts tokens of one response.
type Usage struct {
	InputTokens      int `json:"input_tokens"`
	OutputTokens     int `json:"output_tokens"`
	CacheReadTokens  int `json:"cache_read_input_tokens,omitempty"`
	CacheWriteTokens int `json:"cache_creation_input_tokens,omitempty"`
}

// Add returns the sum of two usages.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		InputTokens:      u.InputTokens + o.InputTokens,
		OutputTokens:     u.OutputTokens + o.OutputTokens,
		CacheReadTokens:  u.CacheReadTokens + o.CacheReadTokens,
		CacheWriteTokens: u.CacheWriteTokens + o.CacheWriteTokens,
	}
}

// Response is a complete answer of the model.
type Response struct {
	Message    Message
	StopReason string
	Usage      Usage
}
