package fakemodel

import (
	"slices"
	"strings"
)

// Match says which requests a reply may answer. Every non-empty field must
// hold; text fields are case-sensitive substring tests. The zero Match
// accepts every request.
type Match struct {
	// LastUser must occur in the last user message: its text blocks
	// (system reminders included) and its tool result contents.
	LastUser string `json:"last_user,omitempty"`
	// System must occur in the system prompt.
	System string `json:"system,omitempty"`
	// AnyMessage must occur somewhere in the messages: text, tool call
	// names and inputs, or tool results.
	AnyMessage string `json:"any_message,omitempty"`
	// FirstUser must occur in the first user message, which tells apart
	// the conversations of subagents running side by side.
	FirstUser string `json:"first_user,omitempty"`
	// ToolResult must occur in the content of a tool result of the last
	// user message.
	ToolResult string `json:"tool_result,omitempty"`
	// HasTool must be the name of an offered tool.
	HasTool string `json:"has_tool,omitempty"`
	// NoTool must not be the name of an offered tool.
	NoTool string `json:"no_tool,omitempty"`
	// Model must equal the requested model name.
	Model string `json:"model,omitempty"`
	// API must equal the API asked: "anthropic", "openai" or "inprocess".
	API string `json:"api,omitempty"`
	// Func, when set, must return true. It runs while the script is
	// locked, so it must not call back into the Server or Provider.
	Func func(*Request) bool `json:"-"`
}

// IsZero reports whether m accepts every request.
func (m Match) IsZero() bool {
	return m.LastUser == "" && m.System == "" && m.AnyMessage == "" && m.FirstUser == "" &&
		m.ToolResult == "" && m.HasTool == "" && m.NoTool == "" && m.Model == "" &&
		m.API == "" && m.Func == nil
}

// Matches reports whether r satisfies every condition of m.
func (m Match) Matches(r *Request) bool {
	if m.API != "" && r.API != m.API {
		return false
	}
	if m.Model != "" && r.Model != m.Model {
		return false
	}
	if m.System != "" && !strings.Contains(r.System, m.System) {
		return false
	}
	if m.HasTool != "" && !slices.Contains(r.Tools, m.HasTool) {
		return false
	}
	if m.NoTool != "" && slices.Contains(r.Tools, m.NoTool) {
		return false
	}
	if m.LastUser != "" && !strings.Contains(r.LastUser().userText(), m.LastUser) {
		return false
	}
	if m.FirstUser != "" && !strings.Contains(r.FirstUser().userText(), m.FirstUser) {
		return false
	}
	if m.ToolResult != "" && !slices.ContainsFunc(r.LastUser().ToolResults, func(tr ToolResult) bool {
		return strings.Contains(tr.Content, m.ToolResult)
	}) {
		return false
	}
	if m.AnyMessage != "" && !slices.ContainsFunc(r.Messages, func(msg Message) bool {
		return msg.contains(m.AnyMessage)
	}) {
		return false
	}
	if m.Func != nil && !m.Func(r) {
		return false
	}
	return true
}
