package llm

import (
	"fmt"
	"slices"
)

// The model APIs accept a conversation only when every tool call of an
// assistant message is answered by a tool result at the start of the very
// next message, a user message, and no tool result stands anywhere else.
// A transcript damaged on disk (a lost line, a process killed between a
// call and its result) breaks that rule, after which every request is
// refused. CheckConversation tells whether a conversation keeps the rule;
// RepairConversation makes it keep it.

// CheckConversation reports the first way msgs would be refused by a model
// API, or nil. Messages without anything to send (no text, calls or
// results) are left out first, as the providers leave them out.
func CheckConversation(msgs []Message) error {
	msgs = sendable(msgs)
	seen := map[string]bool{}
	for i, m := range msgs {
		if m.Role != RoleUser && m.Role != RoleAssistant {
			return fmt.Errorf("message %d has role %q", i, m.Role)
		}
		if i == 0 && m.Role != RoleUser {
			return fmt.Errorf("the conversation starts with an %s message", m.Role)
		}
		var prevCalls []string
		if i > 0 && msgs[i-1].Role == RoleAssistant {
			prevCalls = callIDs(msgs[i-1])
		}
		if m.Role == RoleAssistant {
			if len(prevCalls) > 0 {
				return fmt.Errorf("message %d: the calls of message %d have no results", i, i-1)
			}
			for _, b := range m.Content {
				if b.Type == BlockToolResult {
					return fmt.Errorf("message %d: a tool result in an assistant message", i)
				}
				if b.Type == BlockToolUse {
					if seen[b.ID] {
						return fmt.Errorf("message %d: tool call id %q used twice", i, b.ID)
					}
					seen[b.ID] = true
				}
			}
			continue
		}
		var results []string
		for j, b := range m.Content {
			switch b.Type {
			case BlockToolUse:
				return fmt.Errorf("message %d: a tool call in a user message", i)
			case BlockToolResult:
				if j != len(results) {
					return fmt.Errorf("message %d: tool result %q comes after other content", i, b.ToolUseID)
				}
				results = append(results, b.ToolUseID)
			}
		}
		if !slices.Equal(results, prevCalls) {
			return fmt.Errorf("message %d answers calls %v, want %v (the calls of the message before, in order)", i, results, prevCalls)
		}
	}
	if n := len(msgs); n > 0 && len(callIDs(msgs[n-1])) > 0 {
		return fmt.Errorf("the calls of the last message have no results")
	}
	return nil
}

// RepairKind names a change RepairConversation made.
type RepairKind int

// The changes RepairConversation makes.
const (
	// RepairLostResult: a call's result was missing before the next
	// message; a result saying it was lost stands in for it.
	RepairLostResult RepairKind = iota + 1
	// RepairUnanswered: the last message's calls have no results (the
	// process stopped before they finished); results saying so follow.
	RepairUnanswered
	// RepairDanglingResult: a result without its call (or a call in a
	// user message, which nothing can answer) was dropped.
	RepairDanglingResult
	// RepairDuplicateCall: a call reusing an earlier call's id was dropped.
	RepairDuplicateCall
	// RepairMissingStart: the conversation began with the model; a user
	// message saying its start was lost comes first.
	RepairMissingStart
)

// Repair is one change RepairConversation made.
type Repair struct {
	Kind RepairKind
	// Index is the position, in the input, of the message concerned: the
	// call's message for lost or unanswered results and duplicate calls,
	// the result's message for dangling results.
	Index  int
	ToolID string
	// Tool is the name of the tool called, when known.
	Tool string
}

// Texts of the results and messages that repairs put in.
const (
	LostResultText   = "The result of this call was lost (the session's transcript was damaged); it may or may not have run. Check before relying on it."
	UnansweredText   = "The session stopped before this call finished; it may not have run. Check before relying on it."
	MissingStartText = "(The start of this conversation was lost.)"
)

// RepairConversation returns msgs made valid for the model APIs (see
// CheckConversation) and what was changed. Calls left without results get
// results that say so; results without their call, and calls repeating an
// earlier id, are dropped; messages left with nothing to send are left
// out. With leaveOpen, the calls of the last message stay unanswered (they
// wait for an answer that will come, such as a pending plan approval).
// The input is not modified.
func RepairConversation(msgs []Message, leaveOpen bool) ([]Message, []Repair) {
	var (
		out     []Message
		repairs []Repair
		open    []Block // calls of the last kept message awaiting results
		openAt  int
		seen    = map[string]bool{}
	)
	answer := func(have map[string]Block, kind RepairKind) []Block {
		blocks := make([]Block, 0, len(open))
		for _, c := range open {
			if r, ok := have[c.ID]; ok {
				blocks = append(blocks, r)
				continue
			}
			text := LostResultText
			if kind == RepairUnanswered {
				text = UnansweredText
			}
			blocks = append(blocks, Block{Type: BlockToolResult, ToolUseID: c.ID, Content: text, IsError: true})
			repairs = append(repairs, Repair{Kind: kind, Index: openAt, ToolID: c.ID, Tool: c.Name})
		}
		open = nil
		return blocks
	}
	for i, m := range msgs {
		if !hasContent(m) || (m.Role != RoleUser && m.Role != RoleAssistant) {
			continue
		}
		if len(out) == 0 && m.Role == RoleAssistant {
			out = append(out, UserText(MissingStartText))
			repairs = append(repairs, Repair{Kind: RepairMissingStart, Index: i})
		}
		if m.Role == RoleAssistant {
			if len(open) > 0 {
				out = append(out, Message{Role: RoleUser, Content: answer(nil, RepairLostResult)})
			}
			am := Message{Role: RoleAssistant}
			for _, b := range m.Content {
				switch {
				case b.Type == BlockToolResult:
					repairs = append(repairs, Repair{Kind: RepairDanglingResult, Index: i, ToolID: b.ToolUseID})
					continue
				case b.Type == BlockToolUse && seen[b.ID]:
					repairs = append(repairs, Repair{Kind: RepairDuplicateCall, Index: i, ToolID: b.ID, Tool: b.Name})
					continue
				case b.Type == BlockToolUse:
					seen[b.ID] = true
					open = append(open, b)
				}
				am.Content = append(am.Content, b)
			}
			openAt = i
			if hasContent(am) {
				out = append(out, am)
			}
			continue
		}
		// A user message: its results answer the open calls, in their
		// order, before anything else it says.
		have := map[string]Block{}
		var rest []Block
		for _, b := range m.Content {
			switch {
			case b.Type == BlockToolUse:
				repairs = append(repairs, Repair{Kind: RepairDanglingResult, Index: i, ToolID: b.ID, Tool: b.Name})
			case b.Type != BlockToolResult:
				rest = append(rest, b)
			case isOpen(open, b.ToolUseID) && !hasKey(have, b.ToolUseID):
				have[b.ToolUseID] = b
			default:
				repairs = append(repairs, Repair{Kind: RepairDanglingResult, Index: i, ToolID: b.ToolUseID})
			}
		}
		um := Message{Role: RoleUser, Content: append(answer(have, RepairLostResult), rest...)}
		if hasContent(um) {
			out = append(out, um)
		}
	}
	if len(open) > 0 && !leaveOpen {
		out = append(out, Message{Role: RoleUser, Content: answer(nil, RepairUnanswered)})
	}
	return out, repairs
}

// sendable leaves out the messages the providers would not send.
func sendable(msgs []Message) []Message {
	out := make([]Message, 0, len(msgs))
	for _, m := range msgs {
		if hasContent(m) {
			out = append(out, m)
		}
	}
	return out
}

// hasContent reports whether m has anything a provider sends: non-empty
// text, a call or a result.
func hasContent(m Message) bool {
	for _, b := range m.Content {
		if b.Type != BlockText || b.Text != "" {
			return true
		}
	}
	return false
}

func callIDs(m Message) []string {
	if m.Role != RoleAssistant {
		return nil
	}
	var ids []string
	for _, b := range m.Content {
		if b.Type == BlockToolUse {
			ids = append(ids, b.ID)
		}
	}
	return ids
}

func isOpen(open []Block, id string) bool {
	return slices.ContainsFunc(open, func(b Block) bool { return b.ID == id })
}

func hasKey(m map[string]Block, k string) bool {
	_, ok := m[k]
	return ok
}
