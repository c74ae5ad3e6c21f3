package session

import (
	"encoding/json"

	"github.com/ponder-agent/ponder/internal/llm"
)

// SummaryPrefix opens the message that stands for a compacted conversation.
const SummaryPrefix = "This session continues an earlier conversation that was summarised to save space. The summary:\n\n"

// Conversation returns the messages a resumed session starts from: after
// the last compaction, a user message with the summary and every message
// since; after the conversation was cleared, the messages since; otherwise
// every message.
func (t *Transcript) Conversation() []llm.Message {
	var out []llm.Message
	for _, e := range t.Entries {
		switch e.Type {
		case TypeCompact:
			out = []llm.Message{llm.UserText(SummaryPrefix + e.Summary)}
		case TypeClear:
			out = nil
		case TypeMessage:
			out = append(out, *e.Message)
		}
	}
	return out
}

// LastState returns the last recorded plan-mode state, or nil.
func (t *Transcript) LastState() json.RawMessage {
	for i := len(t.Entries) - 1; i >= 0; i-- {
		if t.Entries[i].Type == TypeState {
			return t.Entries[i].State
		}
	}
	return nil
}

// LastPlan returns the last plan snapshot (approved only, if asked), or nil.
func (t *Transcript) LastPlan(approvedOnly bool) *PlanSnapshot {
	for i := len(t.Entries) - 1; i >= 0; i-- {
		e := t.Entries[i]
		if e.Type == TypePlanSnapshot && (!approvedOnly || e.Plan.Approved) {
			return e.Plan
		}
	}
	return nil
}

// PendingApproval returns the approval a headless run left waiting, or nil
// when it was answered since.
func (t *Transcript) PendingApproval() *Pending {
	for i := len(t.Entries) - 1; i >= 0; i-- {
		switch t.Entries[i].Type {
		case TypeResolved:
			return nil
		case TypePending:
			return t.Entries[i].Pending
		}
	}
	return nil
}

// LastTodos returns the last recorded todo list, or nil.
func (t *Transcript) LastTodos() json.RawMessage {
	for i := len(t.Entries) - 1; i >= 0; i-- {
		if t.Entries[i].Type == TypeTodos {
			return t.Entries[i].Todos
		}
	}
	return nil
}

// Usage adds up the tokens of every recorded request.
func (t *Transcript) Usage() llm.Usage {
	var u llm.Usage
	for _, e := range t.Entries {
		if e.Type == TypeUsage && e.Usage != nil {
			u = u.Add(*e.Usage)
		}
	}
	return u
}
