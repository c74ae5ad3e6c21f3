package session

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ponder-agent/ponder/internal/llm"
)

// SummaryPrefix opens the message that stands for a compacted conversation.
const SummaryPrefix = "This session continues an earlier conversation that was summarised to save space. The summary:\n\n"

// Conversation returns the messages a resumed session starts from: after
// the last compaction, a user message with the summary and every message
// since; after the conversation was cleared, the messages since; otherwise
// every message. A rewind of the conversation cuts it back to the messages
// it kept.
func (t *Transcript) Conversation() []llm.Message {
	msgs, _ := t.conversation()
	return msgs
}

// conversation is Conversation with the line each message came from.
func (t *Transcript) conversation() ([]llm.Message, []int) {
	var out []llm.Message
	var lines []int
	for _, e := range t.Entries {
		switch e.Type {
		case TypeCompact:
			out = []llm.Message{llm.UserText(SummaryPrefix + e.Summary)}
			lines = []int{e.Line}
		case TypeClear:
			out, lines = nil, nil
		case TypeRewind:
			if c := e.Checkpoint; c.Conversation && c.Keep >= 0 && c.Keep <= len(out) {
				out, lines = out[:c.Keep], lines[:c.Keep]
			}
		case TypeMessage:
			out = append(out, *e.Message)
			lines = append(lines, e.Line)
		}
	}
	return out, lines
}

// Resumable returns the conversation to continue from, valid for the
// model APIs: calls whose results were lost with a damaged line get
// results saying so, results whose call was lost are left out (see
// llm.RepairConversation). Calls of the last message that never got their
// results (the process stopped) are answered too, unless leaveOpen (a
// pending approval will answer them); answered says whether that
// happened, so that the caller can record the answer. Warnings name what
// was repaired, except what an earlier resume reported.
func (t *Transcript) Resumable(leaveOpen bool) (msgs []llm.Message, answered bool, warnings []string) {
	raw, lines := t.conversation()
	msgs, repairs := llm.RepairConversation(raw, leaveOpen)
	for _, r := range repairs {
		n := 0
		if r.Index < len(lines) {
			n = lines[r.Index]
		}
		tool := r.Tool
		if tool == "" {
			tool = "tool"
		}
		switch r.Kind {
		case llm.RepairUnanswered:
			answered = true
			continue
		case llm.RepairLostResult:
			warnings = t.note(warnings, n, "the result of the %s call %s is missing (a damaged line); the model is told it was lost", tool, r.ToolID)
		case llm.RepairDanglingResult:
			warnings = t.note(warnings, n, "a tool result for call %s has no call before it; left it out", r.ToolID)
		case llm.RepairDuplicateCall:
			warnings = t.note(warnings, n, "a second %s call with id %s; left it out", tool, r.ToolID)
		case llm.RepairMissingStart:
			warnings = t.note(warnings, n, "the start of the conversation is missing; the model is told it was lost")
		}
	}
	return msgs, answered, warnings
}

// note adds a warning about line n unless an earlier resume reported it.
func (t *Transcript) note(warnings []string, n int, format string, args ...any) []string {
	if !t.unreported(n) {
		return warnings
	}
	return append(warnings, fmt.Sprintf("%s:%d: ", t.Path, n)+fmt.Sprintf(format, args...))
}

// FirstPrompt returns the first line of the first thing the user wrote in
// the session, compacted or cleared since or not, or "".
func (t *Transcript) FirstPrompt() string {
	for _, e := range t.Entries {
		msg := e.Message
		if e.Type != TypeMessage || msg == nil || msg.Role != llm.RoleUser || msg.IsToolResult() {
			continue
		}
		for _, b := range msg.Content {
			if b.Type == llm.BlockText && b.Reminder == "" {
				if s := strings.TrimSpace(b.Text); s != "" {
					first, _, _ := strings.Cut(s, "\n")
					return first
				}
			}
		}
	}
	return ""
}

// FilesSeen returns the last recorded state of each file the session read
// or wrote, in the order they were last seen.
func (t *Transcript) FilesSeen() []FileSeen {
	last := map[string]int{}
	var out []FileSeen
	for _, e := range t.Entries {
		if e.Type != TypeFileSeen {
			continue
		}
		if i, ok := last[e.Seen.Path]; ok {
			out[i] = *e.Seen
			continue
		}
		last[e.Seen.Path] = len(out)
		out = append(out, *e.Seen)
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

// LastModel returns the main model last chosen during the session, or "".
func (t *Transcript) LastModel() string {
	for i := len(t.Entries) - 1; i >= 0; i-- {
		if t.Entries[i].Type == TypeModel {
			return t.Entries[i].Model
		}
	}
	return ""
}

// Grants returns every rule granted during the session, in order.
func (t *Transcript) Grants() []string {
	var out []string
	for _, e := range t.Entries {
		if e.Type == TypeGrant {
			out = append(out, e.Rules...)
		}
	}
	return out
}
