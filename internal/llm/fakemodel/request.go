package fakemodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// The APIs a Request can arrive through.
const (
	APIAnthropic = "anthropic" // Anthropic Messages, POST /v1/messages
	APIOpenAI    = "openai"    // OpenAI Chat Completions, POST /v1/chat/completions
	APIInProcess = "inprocess" // Provider.Stream, no HTTP
)

// What became of a logged request, in Request.Outcome.
const (
	OutcomePending    = ""             // still being answered
	OutcomeServed     = "served"       // the reply was sent in full
	OutcomeError      = "error"        // the reply's injected error status was sent
	OutcomeUnmatched  = "unmatched"    // no reply matched; a 400 was sent
	OutcomeCut        = "cut"          // the connection was cut as scripted
	OutcomeCanceled   = "canceled"     // the client went away (or the server closed) first
	OutcomeStalled    = "stalled"      // the reply fell silent as scripted until the client gave up
	OutcomeStreamErr  = "stream_error" // an error was sent inside the stream as scripted
	OutcomeBadRequest = "bad_request"  // unknown path or undecodable body
)

// Request is one logged request, decoded into a view that is the same for
// every API.
type Request struct {
	// API is APIAnthropic, APIOpenAI or APIInProcess; empty for a request
	// to an unknown path.
	API    string
	Path   string
	Header http.Header
	// Body is the raw JSON body as received (for in-process requests, the
	// llm.Request marshalled to JSON).
	Body  []byte
	Model string
	// System is the system prompt: Anthropic's system text blocks, or the
	// text of OpenAI's system and developer messages, joined by newlines.
	System string
	// Messages are the user and assistant messages in order. OpenAI "tool"
	// messages become tool results of a user message: consecutive ones
	// share one, and a user message right after them is merged into it, as
	// Anthropic carries tool results and follow-up text in one message.
	Messages []Message
	// Tools are the names of the offered tools.
	Tools  []string
	Stream bool
	// MaxTokens is the output bound the request set (max_tokens, or
	// max_completion_tokens), 0 when none.
	MaxTokens int
	// ThinkingBudget is the extended-thinking budget of an Anthropic
	// request ({"thinking": {"type": "enabled", "budget_tokens": N}}), 0
	// when thinking is off.
	ThinkingBudget int
	// ReasoningEffort is an OpenAI request's reasoning_effort, "" when
	// none.
	ReasoningEffort string
	// Reply is the label of the reply chosen (its name, or "#i" for the
	// i-th reply counting from 0); empty when none matched.
	Reply string
	// Outcome says how the request ended; see the Outcome constants.
	Outcome string
	// Time is when the request arrived.
	Time time.Time
}

// Message is one message of a logged request.
type Message struct {
	Role string // "user" or "assistant"
	// Text is the message's text blocks joined by newlines, system
	// reminders included.
	Text        string
	ToolUses    []ToolUse
	ToolResults []ToolResult
	// Images are the image blocks (Anthropic) or image_url parts
	// (OpenAI) of the message.
	Images []Image
}

// Image is an image a message carries inline.
type Image struct {
	// MediaType is "image/png" and the like; Data the bytes in base64.
	MediaType string
	Data      string
}

// ToolUse is a tool call of an assistant message.
type ToolUse struct {
	ID    string
	Name  string
	Input json.RawMessage
}

// ToolResult is a tool result carried by a user message.
type ToolResult struct {
	ToolUseID string
	Content   string
	IsError   bool
}

// LastUser returns the last user message, or the zero Message.
func (r *Request) LastUser() Message {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i]
		}
	}
	return Message{}
}

// FirstUser returns the first user message, or the zero Message.
func (r *Request) FirstUser() Message {
	for _, m := range r.Messages {
		if m.Role == "user" {
			return m
		}
	}
	return Message{}
}

// ContainsText reports whether s occurs in the system prompt or anywhere in
// the messages (text, tool call names and inputs, tool results).
func (r *Request) ContainsText(s string) bool {
	if strings.Contains(r.System, s) {
		return true
	}
	for _, m := range r.Messages {
		if m.contains(s) {
			return true
		}
	}
	return false
}

// CacheControlCount counts the cache_control markers (keys with a non-null
// value) anywhere in the body; only Anthropic requests have them.
func (r *Request) CacheControlCount() int {
	dec := json.NewDecoder(bytes.NewReader(r.Body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return 0
	}
	return countKey(v, "cache_control")
}

func countKey(v any, key string) int {
	n := 0
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if k == key && x != nil {
				n++
			}
			n += countKey(x, key)
		}
	case []any:
		for _, x := range v {
			n += countKey(x, key)
		}
	}
	return n
}

// userText is what LastUser and FirstUser matches look at: the text and
// the tool result contents, joined by newlines.
func (m Message) userText() string {
	parts := make([]string, 0, 1+len(m.ToolResults))
	if m.Text != "" {
		parts = append(parts, m.Text)
	}
	for _, tr := range m.ToolResults {
		parts = append(parts, tr.Content)
	}
	return strings.Join(parts, "\n")
}

func (m Message) contains(s string) bool {
	if strings.Contains(m.Text, s) {
		return true
	}
	for _, tu := range m.ToolUses {
		if strings.Contains(tu.Name, s) || strings.Contains(string(tu.Input), s) {
			return true
		}
	}
	for _, tr := range m.ToolResults {
		if strings.Contains(tr.Content, s) {
			return true
		}
	}
	return false
}

// describe summarises the request for error messages.
func (r *Request) describe() string {
	last := r.LastUser().userText()
	const max = 160
	if rs := []rune(last); len(rs) > max {
		last = string(rs[:max]) + "…"
	}
	return fmt.Sprintf("last user message %q, model %q, %d messages, %d tools",
		last, r.Model, len(r.Messages), len(r.Tools))
}

// joinText joins the non-empty parts by newlines.
func joinText(parts []string) string {
	out := parts[:0:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "\n")
}

// appendUser appends user message m to msgs, folding it into the previous
// message when that is a user message carrying tool results, so that OpenAI's separate "tool" messages
// and a following user message read as Anthropic's single user message.
func appendUser(msgs []Message, m Message) []Message {
	if n := len(msgs); n > 0 && msgs[n-1].Role == "user" && len(msgs[n-1].ToolResults) > 0 {
		prev := &msgs[n-1]
		prev.Text = joinText([]string{prev.Text, m.Text})
		prev.ToolResults = append(prev.ToolResults, m.ToolResults...)
		prev.Images = append(prev.Images, m.Images...)
		return msgs
	}
	return append(msgs, m)
}
