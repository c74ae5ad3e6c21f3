package fakemodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// anthropicWire speaks the Anthropic Messages API.
type anthropicWire struct{}

// Request shapes of the Messages API, as far as the fake reads them.
type (
	anthRequest struct {
		Model    string          `json:"model"`
		System   json.RawMessage `json:"system"`
		Messages []anthMessage   `json:"messages"`
		Tools    []struct {
			Name string `json:"name"`
		} `json:"tools"`
		Stream    bool `json:"stream"`
		MaxTokens int  `json:"max_tokens"`
		Thinking  struct {
			Type         string `json:"type"`
			BudgetTokens int    `json:"budget_tokens"`
		} `json:"thinking"`
	}
	anthMessage struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	anthBlock struct {
		Type      string          `json:"type"`
		Text      string          `json:"text"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
		ToolUseID string          `json:"tool_use_id"`
		Content   json.RawMessage `json:"content"`
		IsError   bool            `json:"is_error"`
		Source    struct {
			Type      string `json:"type"`
			MediaType string `json:"media_type"`
			Data      string `json:"data"`
		} `json:"source"`
	}
)

// anthBlocks reads content that is either a string or an array of blocks;
// a string reads as one text block.
func anthBlocks(raw json.RawMessage) ([]anthBlock, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		return []anthBlock{{Type: "text", Text: s}}, nil
	}
	var blocks []anthBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return nil, err
	}
	return blocks, nil
}

// anthText joins the text of the text blocks in content.
func anthText(raw json.RawMessage) (string, error) {
	blocks, err := anthBlocks(raw)
	if err != nil {
		return "", err
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n"), nil
}

func (anthropicWire) decode(x *exchange) error {
	var body anthRequest
	if err := json.Unmarshal(x.req.Body, &body); err != nil {
		return err
	}
	r := x.req
	r.Model, r.Stream, r.MaxTokens = body.Model, body.Stream, body.MaxTokens
	if body.Thinking.Type == "enabled" {
		r.ThinkingBudget = body.Thinking.BudgetTokens
	}
	system, err := anthText(body.System)
	if err != nil {
		return fmt.Errorf("system: %w", err)
	}
	r.System = system
	for _, t := range body.Tools {
		r.Tools = append(r.Tools, t.Name)
	}
	for i, m := range body.Messages {
		blocks, err := anthBlocks(m.Content)
		if err != nil {
			return fmt.Errorf("messages[%d].content: %w", i, err)
		}
		msg := Message{Role: m.Role}
		var texts []string
		for _, b := range blocks {
			switch b.Type {
			case "text":
				texts = append(texts, b.Text)
			case "image":
				msg.Images = append(msg.Images, Image{MediaType: b.Source.MediaType, Data: b.Source.Data})
			case "tool_use":
				msg.ToolUses = append(msg.ToolUses, ToolUse{ID: b.ID, Name: b.Name, Input: b.Input})
			case "tool_result":
				content, err := anthText(b.Content)
				if err != nil {
					return fmt.Errorf("messages[%d] tool_result content: %w", i, err)
				}
				msg.ToolResults = append(msg.ToolResults, ToolResult{ToolUseID: b.ToolUseID, Content: content, IsError: b.IsError})
			}
		}
		msg.Text = strings.Join(texts, "\n")
		r.Messages = append(r.Messages, msg)
	}
	return nil
}

// anthErrorType is the error type the API gives a status.
func anthErrorType(status int) string {
	switch status {
	case 400:
		return "invalid_request_error"
	case 401:
		return "authentication_error"
	case 402:
		return "billing_error"
	case 403:
		return "permission_error"
	case 404:
		return "not_found_error"
	case 408, 504:
		return "timeout_error"
	case 409:
		return "conflict_error"
	case 413:
		return "request_too_large"
	case 429:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	if status >= 500 {
		return "api_error"
	}
	return "invalid_request_error"
}

func (anthropicWire) writeError(x *exchange, status int, message string, header http.Header) {
	for k, v := range header {
		x.w.Header()[k] = v
	}
	x.w.Header().Set("request-id", x.book.next("req_fake_"))
	writeJSON(x.w, status, map[string]any{
		"type":  "error",
		"error": map[string]any{"type": anthErrorType(status), "message": message},
	})
}

// Response shapes of the Messages API.
type (
	anthOutMessage struct {
		ID           string         `json:"id"`
		Type         string         `json:"type"`
		Role         string         `json:"role"`
		Model        string         `json:"model"`
		Content      []anthOutBlock `json:"content"`
		StopReason   *string        `json:"stop_reason"`
		StopSequence *string        `json:"stop_sequence"`
		Usage        anthUsage      `json:"usage"`
	}
	anthOutBlock struct {
		Type  string          `json:"type"`
		Text  *string         `json:"text,omitempty"`
		ID    string          `json:"id,omitempty"`
		Name  string          `json:"name,omitempty"`
		Input json.RawMessage `json:"input,omitempty"`
	}
	anthUsage struct {
		InputTokens              int `json:"input_tokens"`
		OutputTokens             int `json:"output_tokens"`
		CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	}
	anthDelta struct {
		Type        string  `json:"type"`
		Text        any     `json:"text,omitempty"`
		PartialJSON *string `json:"partial_json,omitempty"`
	}
)

func (anthropicWire) respond(x *exchange) error {
	r := x.reply
	u := usageFor(r, len(x.req.Body), x.req.MaxTokens)
	usage := anthUsage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheCreationInputTokens: u.CacheWriteTokens, CacheReadInputTokens: u.CacheReadTokens}
	stop := anthropicStop(r)
	id := x.book.next("msg_fake_")
	x.w.Header().Set("request-id", x.book.next("req_fake_"))

	calls := make([]ToolCall, len(r.ToolCalls))
	for i, tc := range r.ToolCalls {
		if tc.ID == "" {
			tc.ID = x.book.next("toolu_fake_")
		}
		calls[i] = tc
	}

	if !x.req.Stream {
		msg := anthOutMessage{ID: id, Type: "message", Role: "assistant", Model: x.model(),
			Content: []anthOutBlock{}, StopReason: &stop, Usage: usage}
		if r.Text != "" {
			msg.Content = append(msg.Content, anthOutBlock{Type: "text", Text: &r.Text})
		}
		for _, tc := range calls {
			in := inputJSON(tc)
			if !json.Valid([]byte(in)) {
				// A whole message cannot carry broken JSON verbatim; send it
				// as a string so the client still sees it is not an object.
				in = string(mustMarshal(in))
			}
			msg.Content = append(msg.Content, anthOutBlock{Type: "tool_use", ID: tc.ID, Name: tc.Name, Input: json.RawMessage(in)})
		}
		return x.sendWhole(msg)
	}

	if err := x.startStream(); err != nil {
		return err
	}
	start := anthOutMessage{ID: id, Type: "message", Role: "assistant", Model: x.model(),
		Content: []anthOutBlock{}, Usage: usage}
	start.Usage.OutputTokens = 1
	if err := x.send("message_start", map[string]any{"type": "message_start", "message": start}); err != nil {
		return err
	}
	if r.KeepAlive > 0 {
		return x.keepAlive("event: ping\ndata: {\"type\": \"ping\"}\n\n")
	}
	index := 0
	if r.Text != "" {
		empty := ""
		if err := x.send("content_block_start", map[string]any{"type": "content_block_start", "index": index,
			"content_block": anthOutBlock{Type: "text", Text: &empty}}); err != nil {
			return err
		}
		err := x.streamText(func(piece any) error {
			return x.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
				"delta": anthDelta{Type: "text_delta", Text: piece}})
		})
		if err != nil {
			return err
		}
		if err := x.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": index}); err != nil {
			return err
		}
		index++
	}
	for _, tc := range calls {
		if err := x.send("content_block_start", map[string]any{"type": "content_block_start", "index": index,
			"content_block": anthOutBlock{Type: "tool_use", ID: tc.ID, Name: tc.Name, Input: json.RawMessage("{}")}}); err != nil {
			return err
		}
		for _, piece := range splitJSON(inputJSON(tc)) {
			if err := x.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
				"delta": anthDelta{Type: "input_json_delta", PartialJSON: &piece}}); err != nil {
				return err
			}
		}
		if err := x.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": index}); err != nil {
			return err
		}
		index++
	}
	if err := x.ending(); err != nil {
		return err
	}
	if err := x.send("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": u.OutputTokens}}); err != nil {
		return err
	}
	if err := x.send("message_stop", map[string]any{"type": "message_stop"}); err != nil {
		return err
	}
	return x.endStream()
}

func (anthropicWire) streamError(x *exchange) (string, any) {
	return "error", map[string]any{
		"type":  "error",
		"error": map[string]any{"type": x.reply.StreamError, "message": streamErrorMessage(x.reply)},
	}
}
