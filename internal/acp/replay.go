package acp

import (
	"encoding/json"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ponder-agent/ponder/event"
)

// replay sends a loaded session's conversation as updates: the user's
// words, the model's text, each tool call with its outcome, and the last
// todo list as the plan. ponder's reminders to the model are not the
// user's words and are left out.
func (ss *session) replay() {
	hist := ss.app.History()
	results := map[string]event.Block{}
	for _, m := range hist {
		for _, b := range m.Content {
			if b.Type == event.BlockToolResult {
				results[b.ToolUseID] = b
			}
		}
	}
	var todos []event.TodoItem
	haveTodos := false
	for _, m := range hist {
		for _, b := range m.Content {
			switch {
			case b.Type == event.BlockText && b.Reminder == "" && b.Text != "":
				if m.Role == "user" {
					ss.send(sdk.UpdateUserMessageText(b.Text), nil)
				} else {
					ss.send(sdk.UpdateAgentMessageText(b.Text), nil)
				}
			case b.Type == event.BlockToolUse:
				c := describe(ss.app.Dir(), b.ID, b.Name, b.Input)
				res, done := results[b.ID]
				status := sdk.ToolCallStatusCompleted
				if !done || res.IsError {
					status = sdk.ToolCallStatusFailed
				}
				switch {
				case !done:
					c.diff = textContent("This call never finished: the session ended first.")
				case len(c.diff) == 0 || res.IsError:
					c.diff = append(c.diffIf(!res.IsError), textContent(res.Content)...)
				}
				ss.announce(c, status)
				if b.Name == "TodoWrite" && status == sdk.ToolCallStatusCompleted {
					var in struct {
						Todos []event.TodoItem `json:"todos"`
					}
					if json.Unmarshal(b.Input, &in) == nil {
						todos, haveTodos = in.Todos, true
					}
				}
			}
		}
	}
	if haveTodos {
		ss.send(todoPlan(todos), nil)
	}
}
