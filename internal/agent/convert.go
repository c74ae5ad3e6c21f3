package agent

import (
	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/llm"
)

// EventMessage is how front ends see a message.
func EventMessage(m llm.Message) event.Message {
	out := event.Message{Role: string(m.Role), Content: make([]event.Block, len(m.Content))}
	for i, b := range m.Content {
		out.Content[i] = event.Block{Type: string(b.Type), Text: b.Text, ID: b.ID, Name: b.Name, Input: b.Input,
			ToolUseID: b.ToolUseID, Content: b.Content, IsError: b.IsError, Reminder: b.Reminder}
	}
	return out
}

// EventUsage is how front ends see token counts.
func EventUsage(u llm.Usage) event.Usage {
	return event.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, CacheReadTokens: u.CacheReadTokens, CacheWriteTokens: u.CacheWriteTokens}
}
