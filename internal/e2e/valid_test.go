package e2e

import (
	"encoding/json"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// checkRequests fails the test unless every request the fake received
// carries a conversation the real APIs would accept: each tool call
// answered at the start of the next message, no result without its call.
// The conversation is read from the raw body, in wire order.
func checkRequests(t *testing.T, reqs []fakemodel.Request) {
	t.Helper()
	for i, r := range reqs {
		msgs, err := wireConversation(r)
		if err != nil {
			t.Errorf("request %d: %v", i, err)
			continue
		}
		if err := llm.CheckConversation(msgs); err != nil {
			t.Errorf("request %d (%s) would be refused by the API: %v", i, r.API, err)
		}
	}
}

// wireConversation reads the messages of a logged request's body.
func wireConversation(r fakemodel.Request) ([]llm.Message, error) {
	if r.API == fakemodel.APIOpenAI {
		return openAIConversation(r.Body)
	}
	var body struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		return nil, err
	}
	var out []llm.Message
	for _, m := range body.Messages {
		msg := llm.Message{Role: llm.Role(m.Role)}
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			msg.Content = []llm.Block{llm.TextBlock(s)}
		} else {
			var blocks []struct {
				Type      string `json:"type"`
				Text      string `json:"text"`
				ID        string `json:"id"`
				Name      string `json:"name"`
				ToolUseID string `json:"tool_use_id"`
			}
			if err := json.Unmarshal(m.Content, &blocks); err != nil {
				return nil, err
			}
			for _, b := range blocks {
				msg.Content = append(msg.Content, llm.Block{Type: llm.BlockType(b.Type), Text: b.Text, ID: b.ID, Name: b.Name, ToolUseID: b.ToolUseID})
			}
		}
		out = append(out, msg)
	}
	return out, nil
}

// openAIConversation reads Chat Completions messages: consecutive "tool"
// messages become one user message of results, as the API pairs them
// with the assistant message before them.
func openAIConversation(raw []byte) ([]llm.Message, error) {
	var body struct {
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, err
	}
	var out []llm.Message
	for _, m := range body.Messages {
		switch m.Role {
		case "system", "developer":
			continue
		case "tool":
			b := llm.Block{Type: llm.BlockToolResult, ToolUseID: m.ToolCallID, Content: "x"}
			if n := len(out); n > 0 && out[n-1].Role == llm.RoleUser && out[n-1].IsToolResult() {
				out[n-1].Content = append(out[n-1].Content, b)
			} else {
				out = append(out, llm.Message{Role: llm.RoleUser, Content: []llm.Block{b}})
			}
			continue
		}
		msg := llm.Message{Role: llm.Role(m.Role)}
		msg.Content = append(msg.Content, llm.TextBlock(string(m.Content)))
		for _, c := range m.ToolCalls {
			msg.Content = append(msg.Content, llm.Block{Type: llm.BlockToolUse, ID: c.ID, Name: c.Function.Name})
		}
		out = append(out, msg)
	}
	return out, nil
}
