package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
)

// handleEvent folds one session event into the interface.
func (m *Model) handleEvent(e event.Event) tea.Cmd {
	c := m.conv
	switch e := e.(type) {
	case event.TextDelta:
		if e.AgentID != "" {
			return nil
		}
		it := c.streaming("")
		it.text += e.Text
		it.invalidate()
	case event.Retrying:
		c.dropStreaming(e.AgentID)
		c.notice("warning", fmt.Sprintf("The model request failed (%s); trying again.", e.Error))
	case event.AssistantMessage:
		m.tokens += e.Usage.OutputTokens
		if e.AgentID != "" {
			m.agentStep(e.AgentID, "")
			return nil
		}
		c.finishStreaming("", messageText(e.Message))
		// Tool calls appear in call order, whichever finishes first.
		for _, b := range e.Message.Content {
			if b.Type == event.BlockToolUse {
				c.toolStarted("", b.ID, b.Name, b.Input)
			}
		}
	case event.ToolStarted:
		if e.AgentID != "" {
			m.agentStep(e.AgentID, e.Name+"("+toolArgument(e.Name, e.Input)+")")
			return nil
		}
		c.toolStarted(e.AgentID, e.ID, e.Name, e.Input)
	case event.ToolFinished:
		if e.Todos != nil && e.AgentID == "" {
			m.todos = e.Todos
		}
		if e.AgentID != "" {
			return nil
		}
		c.toolFinished(e.AgentID, e.ID, e.Name, e.Content, e.Summary, e.Diff, e.IsError, e.Duration)
	case event.ToolRefused:
		if e.AgentID != "" {
			m.agentStep(e.AgentID, e.Tool+" refused")
			return nil
		}
		c.toolRefused(e.AgentID, e.ID, e.Tool, e.Input, e.Reason)
	case event.Notice:
		if e.Text != "" {
			c.notice(e.Level, e.Text)
		}
	case event.ModeChanged:
		// Entering plan mode and approving a plan have notices of their
		// own, which name the mode.
		if e.To != event.ModePlan && e.Via != "approval" {
			c.notice("info", "Mode: "+app.ModeTitle(e.To)+".")
		}
	case event.PlanModeEntered:
		m.phase = "explore"
		m.planFile = e.PlanFile
		c.notice("info", "Plan mode: ponder explores read-only and writes its plan to "+e.PlanFile+".")
	case event.PlanPhase:
		m.phase = e.Phase
	case event.PlanApproved:
		m.phase = ""
		msg := "Plan approved; now in " + app.ModeTitle(e.Mode) + "."
		if e.Edited {
			msg = "Plan approved with your edits; now in " + app.ModeTitle(e.Mode) + "."
		}
		if e.Model != "" {
			msg += " " + e.Model + " implements it."
		}
		if len(e.Granted) > 0 {
			msg += " Granted for this session: " + strings.Join(e.Granted, ", ") + "."
		}
		if len(e.Steps) > 0 {
			m.todos = e.Steps
			msg += stepsNotice(e)
		}
		c.notice("info", msg)
	case event.PlanRejected:
		if e.Interrupted {
			c.notice("warning", "Nobody approved the plan; plan mode stays on.")
		} else {
			c.notice("info", sentBackNotice(e))
		}
	case event.PlanReport:
		c.notice("info", reportNotice(e))
	case event.PlanImplement:
		c.notice("info", "Starting a fresh conversation from the approved plan.")
	case event.AgentStarted:
		m.parent[e.AgentID] = e.ParentToolID
		m.agentStep(e.AgentID, e.Type+" agent started: "+e.Description)
	case event.AgentFinished:
		step := fmt.Sprintf("done: %d tool calls, %s tokens, %s", e.ToolCalls, compact(e.Tokens), e.Duration.Round(100*time.Millisecond))
		if e.Error != "" {
			step = "stopped: " + firstLine(e.Error)
		}
		m.agentStep(e.AgentID, step)
	case event.TeammateState:
		return m.teammateState(e)
	case event.TeamMessage:
		return m.teamMessage(e)
	case event.QuestionAsked:
		m.openDialog(e.Question)
	case event.QuestionClosed:
		m.closeDialog(e.ID)
	}
	return nil
}

// agentStep records a subagent's progress under the Task call that
// launched it, keeping the last few steps.
func (m *Model) agentStep(agentID, step string) {
	it, ok := m.conv.byTool[m.parent[agentID]]
	if step == "" || !ok {
		return
	}
	it.children = append(it.children, display(step))
	if len(it.children) > 5 {
		it.children = it.children[len(it.children)-5:]
	}
	it.invalidate()
}

func messageText(msg event.Message) string {
	var parts []string
	for _, b := range msg.Content {
		if b.Type == event.BlockText && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}

// loadHistory shows a resumed conversation.
func (m *Model) loadHistory() {
	hist := m.app.History()
	m.conv.loadHistory(hist)
	if len(hist) > 0 {
		m.conv.notice("info", fmt.Sprintf("Resumed session %s.", m.app.ID()))
	}
}

// loadHistory adds the messages of a conversation so far: what the user
// wrote, the answers, and each tool call with its result.
func (c *conversation) loadHistory(hist []event.Message) {
	results := map[string]event.Block{}
	for _, msg := range hist {
		for _, b := range msg.Content {
			if b.Type == event.BlockToolResult {
				results[b.ToolUseID] = b
			}
		}
	}
	for _, msg := range hist {
		switch msg.Role {
		case "user":
			if t := typedText(msg); strings.TrimSpace(t) != "" {
				c.add(&item{kind: itemUser, text: t})
			}
		case "assistant":
			if t := messageText(msg); strings.TrimSpace(t) != "" {
				c.add(&item{kind: itemAssistant, text: t})
			}
			for _, u := range msg.Content {
				if u.Type != event.BlockToolUse {
					continue
				}
				it := c.add(&item{kind: itemTool, toolID: u.ID, tool: u.Name, input: u.Input, status: toolDone})
				if r, ok := results[u.ID]; ok {
					it.result = r.Content
					if r.IsError {
						it.status = toolFailed
					}
				}
			}
		}
	}
}

// typedText is what the user typed in a message: its text blocks, without
// the reminders ponder attached.
func typedText(msg event.Message) string {
	var parts []string
	for _, b := range msg.Content {
		if b.Type == event.BlockText && b.Reminder == "" && b.Attachment == "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "")
}

// sentBackNotice says what went back with a plan the user sent back.
func sentBackNotice(e event.PlanRejected) string {
	msg := "Plan sent back"
	if n := len(e.Annotations); n > 0 {
		msg += " with " + plural(n, "comment")
	}
	if f := firstLine(e.Feedback); f != "" {
		return msg + ": " + f
	}
	return msg + "; ponder keeps planning."
}
